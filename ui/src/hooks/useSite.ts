import useSWR from 'swr';

import { keys } from './keys';
import { readSite } from './reads';

/** Public facts about this server (sign-up open, currency, contact e-mail); none asked while `wanted` is false. */
export function useSite(wanted = true) {
  return useSWR(wanted ? keys.site() : null, readSite, {
    revalidateOnFocus: false,
  });
}
