import { useRef, useState, type Ref } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';

import { copyText } from '../../lib/clipboard';
import { useToast } from '../ui/toast-context';

/**
 * Copy Link for a co-parent's link. Where the clipboard API is missing (plain http on a LAN) or
 * refused, the link is shown in a read-only field, selected, and the older copy command is
 * tried; the toast says which happened. `alwaysShown`: the field is on screen already.
 */
export function useCopyLink(link: string, alwaysShown = false) {
  const { t } = useTranslation();
  const { toast } = useToast();
  const field = useRef<HTMLInputElement>(null);
  const [revealed, setRevealed] = useState(false);

  const copy = async () => {
    const outcome = await copyText(link, () => {
      // Rendered now, so it can be selected within the click that asked for the copy.
      if (!alwaysShown) flushSync(() => setRevealed(true));
      return field.current;
    });
    if (outcome === 'copied') {
      toast({ variant: 'success', title: t('coParents.copy.copied') });
    } else if (outcome === 'copiedSelected') {
      toast({
        variant: 'success',
        title: t('coParents.copy.copied'),
        description: t('coParents.copy.alsoShown'),
      });
    } else {
      toast({
        variant: 'info',
        title: t('coParents.copy.selectTitle'),
        description: t('coParents.copy.selectBody'),
        durationMs: 10_000,
      });
    }
  };

  return { copy, field, shown: alwaysShown || revealed };
}

/** The link in a read-only field that selects itself when focused, for copying by hand. */
export function LinkField({
  value,
  label,
  ref,
}: {
  value: string;
  label: string;
  ref?: Ref<HTMLInputElement>;
}) {
  return (
    <input
      ref={ref}
      className="input input-bordered input-sm w-full min-w-0 font-mono"
      readOnly
      value={value}
      aria-label={label}
      onFocus={(e) => e.target.select()}
    />
  );
}
