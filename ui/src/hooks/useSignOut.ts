import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';

import { useAuth } from '../auth/auth-context';
import { useToast } from '../components/ui/toast-context';
import { routes } from '../routes';

/** Signs out, goes to / and says so (spec sections 4 and 8). */
export function useSignOut() {
  const { logout } = useAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await logout();
      navigate(routes.home, { replace: true });
      toast({
        variant: 'success',
        title: 'Signed out',
        description: 'You have been successfully signed out',
      });
    } catch (err) {
      toast({
        title: 'Sign out failed',
        description: err instanceof Error ? err.message : 'Please try again.',
      });
    }
  }, [logout, navigate, toast]);
}
