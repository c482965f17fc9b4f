import { Download, Printer } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { exportUrl, type GroceryList } from '../../hooks/useGroceryLists';
import { pathTo, routes } from '../../routes';
import { useToast } from '../ui/toast-context';

/** The formats, each with the catalogue key of its name (resolved when shown). */
const FORMATS = [
  { format: 'txt', labelKey: 'grocery.export.txt' },
  { format: 'csv', labelKey: 'grocery.export.csv' },
  { format: 'md', labelKey: 'grocery.export.md' },
] as const;

/**
 * Export of a saved list: a real file download in three formats, or the print view. The choices
 * open below the buttons, in the flow of the dialog (a floating menu would be cut off in a
 * scrolling sheet on a phone), and are scrolled into view as they open: at the bottom edge of a
 * phone's sheet they opened off the screen. A list not saved yet has nothing to export.
 */
export function ExportMenu({ list }: { list: GroceryList | null }) {
  const { t } = useTranslation();
  const { toast } = useToast();
  const [open, setOpen] = useState(false);
  const panel = useId();
  const choices = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The nearest edge only: nothing moves when the choices are already on the screen.
    if (open) choices.current?.scrollIntoView({ block: 'nearest' });
  }, [open]);
  if (!list) {
    return (
      <button
        type="button"
        className="btn btn-outline"
        disabled
        title={t('grocery.export.saveFirst')}
      >
        <Download aria-hidden size={18} /> {t('grocery.export.button')}
      </button>
    );
  }
  const exported = () =>
    toast({
      variant: 'success',
      title: t('grocery.export.doneTitle'),
      description: t('grocery.export.done'),
    });
  return (
    <>
      <button
        type="button"
        className="btn btn-outline"
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => setOpen((o) => !o)}
      >
        <Download aria-hidden size={18} /> {t('grocery.export.button')}
      </button>
      <div
        ref={choices}
        id={panel}
        hidden={!open}
        role="group"
        aria-label={t('grocery.export.as')}
        // Scrolled into view with a margin: not flush with the screen's edge.
        className="order-last flex basis-full scroll-my-4 flex-wrap justify-end gap-2"
      >
        {FORMATS.map((f) => (
          <a
            key={f.format}
            className="btn btn-sm btn-ghost"
            href={exportUrl(list.id, f.format)}
            download
            onClick={exported}
          >
            {t(f.labelKey)}
          </a>
        ))}
        <Link
          className="btn btn-sm btn-ghost"
          to={pathTo(routes.groceryPrint, { id: list.id })}
          target="_blank"
          rel="noopener"
        >
          <Printer aria-hidden size={16} /> {t('grocery.export.printView')}
        </Link>
      </div>
    </>
  );
}
