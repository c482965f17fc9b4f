import useSWR from 'swr';

import { keys } from './keys';
import { readSite } from './reads';

/** Public facts about this server (sign-up open, currency, contact e-mail). */
export function useSite() {
  return useSWR(keys.site(), readSite, {
    revalidateOnFocus: false,
  });
}
