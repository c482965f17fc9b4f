import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

import { useAuth } from '../auth/auth-context';
import { useToast } from '../components/ui/toast-context';
import { routes } from '../routes';

/** Signs out, goes to / and says so (spec sections 4 and 8). */
export function useSignOut() {
  const { t } = useTranslation();
  const { logout } = useAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await logout();
      navigate(routes.home, { replace: true });
      toast({
        variant: 'success',
        title: t('auth.signOut.title'),
        description: t('auth.signOut.body'),
      });
    } catch (err) {
      toast({
        title: t('auth.failed.signOut'),
        description: err instanceof Error ? err.message : t('auth.signOut.retry'),
      });
    }
  }, [logout, navigate, toast, t]);
}
