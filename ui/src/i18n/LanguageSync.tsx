import { useEffect } from 'react';

import { useAuth } from '../auth/auth-context';
import { useSite } from '../hooks/useSite';
import { followAccount, isLanguage, needsServerDefault } from '.';

/**
 * Keeps the screens in the account's language (chosen on another device, or by this parent
 * after another signed in here), and, for a browser that speaks none of the UI's languages,
 * in the server's default. The site's facts are read only then.
 */
export function LanguageSync() {
  const { state } = useAuth();
  const { data: site } = useSite(needsServerDefault());
  const account = state.user?.language ?? null;
  const fallback = isLanguage(site?.defaultLanguage) ? site.defaultLanguage : undefined;
  useEffect(() => {
    if (state.status !== 'loading') followAccount(account, fallback);
  }, [state.status, account, fallback]);
  return null;
}
