import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { Button } from './Button';

const LAYOUTS = {
  row: 'flex justify-end gap-2',
  /** Wraps on a narrow screen (a third control between the two). */
  wrap: 'flex flex-wrap justify-end gap-2',
  /** daisyUI's row at the foot of a dialog. */
  modal: 'modal-action',
} as const;

interface FormActionsProps {
  /** Cancel; left out where the form cannot be cancelled. */
  onCancel?: () => void;
  /** Cancel's label: 'Cancel' unless it waits for something ('Finishing...'). */
  cancelLabel?: ReactNode;
  cancelDisabled?: boolean;
  /** The submit button's spinner is shown and it is disabled while the form is sent. */
  busy: boolean;
  /** The submit button's label while busy. */
  busyLabel?: ReactNode;
  submitDisabled?: boolean;
  /** Between Cancel and the submit button (the grocery list's Export). */
  between?: ReactNode;
  layout?: keyof typeof LAYOUTS;
  /** The submit button's label. */
  children: ReactNode;
}

/** A form's foot: Cancel (a plain button) and the submit button, with its saving state. */
export function FormActions({
  onCancel,
  cancelLabel,
  cancelDisabled,
  busy,
  busyLabel,
  submitDisabled,
  between,
  layout = 'row',
  children,
}: FormActionsProps) {
  const { t } = useTranslation();
  return (
    <div className={LAYOUTS[layout]}>
      {onCancel ? (
        <Button variant="ghost" disabled={cancelDisabled} onClick={onCancel}>
          {cancelLabel ?? t('common.cancel')}
        </Button>
      ) : null}
      {between}
      <Button
        type="submit"
        busy={busy}
        busyLabel={busyLabel ?? t('ui.busy.saving')}
        disabled={submitDisabled}
      >
        {children}
      </Button>
    </div>
  );
}
