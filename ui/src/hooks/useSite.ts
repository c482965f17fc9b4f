import useSWR from 'swr';

import { api, unwrap } from '../api/client';
import { keys } from './keys';

/** Public facts about this server (sign-up open, currency, contact e-mail). */
export function useSite() {
  return useSWR(keys.site(), () => unwrap(api.GET('/site'), 'Error'), {
    revalidateOnFocus: false,
  });
}
