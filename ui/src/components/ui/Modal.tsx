import { X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { closeModal, keepFocusInside, showModal } from './dialog';

interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Wider box for forms. */
  wide?: boolean;
}

/**
 * A native modal <dialog> styled by daisyUI; a sheet on phones. While open the page behind is
 * inert, Tab stays inside, Escape closes it, and focus goes back to what opened it.
 */
export function Modal({ open, title, onClose, children, wide }: ModalProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Whether the parent still thinks the dialog is open, for the browser closing it on its own.
  const wanted = useRef(open);

  useEffect(() => {
    wanted.current = open;
    const dialog = ref.current;
    if (!dialog) return;
    if (open) showModal(dialog);
    else closeModal(dialog);
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={titleId}
      onKeyDown={keepFocusInside}
      // React passes a nested dialog's cancel and close up to this one (a confirmation inside
      // a dialog): only this dialog's own close it.
      onCancel={(e) => {
        if (e.target !== e.currentTarget) return;
        e.preventDefault();
        onClose();
      }}
      onClose={(e) => {
        if (e.target !== e.currentTarget) return;
        // Chrome may close a dialog on Escape without a cancel event (repeated Escapes with no
        // click in between); tell the parent so its state follows.
        if (wanted.current) onClose();
      }}
    >
      {open ? (
        <div className={`modal-box max-h-[92dvh] ${wide ? 'sm:max-w-2xl' : ''}`}>
          <div className="mb-4 flex items-start justify-between gap-4">
            <h2 id={titleId} className="text-xl font-bold">
              {title}
            </h2>
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-square"
              aria-label={t('common.close')}
              onClick={onClose}
            >
              <X aria-hidden size={18} />
            </button>
          </div>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
