import i18n from 'i18next';
import { useCallback } from 'react';

import { ApiFailure } from '../api/client';
import { useToast } from '../components/ui/toast-context';
import type { Problem } from '../lib/validation';

/** Shows a failed request or check as the spec's destructive toast; returns the field to mark. */
export function useFailure() {
  const { toast } = useToast();
  return useCallback(
    (err: unknown, fallbackTitle: string): string | undefined => {
      if (err instanceof ApiFailure) {
        // Client errors carry the spec's title for what went wrong ('Photo upload failed',
        // 'Too many attempts'); server and network failures use the screen's title.
        const title = err.status >= 400 && err.status < 500 ? err.title : fallbackTitle;
        toast({ title, description: err.message });
        return err.field;
      }
      const problem = err as Problem;
      if (problem && typeof problem.title === 'string') {
        toast({ title: problem.title, description: problem.message });
        return problem.field;
      }
      toast({ title: fallbackTitle, description: i18n.t('common.unexpectedError') });
      return undefined;
    },
    [toast],
  );
}
