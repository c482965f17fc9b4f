import { useTranslation } from 'react-i18next';

/**
 * `fill`: a whole page is loading. The spinner then takes the screen's height, so the footer
 * stays below it instead of jumping down when the page arrives (a layout shift).
 */
export function Spinner({ label, fill = false }: { label?: string; fill?: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      className={`flex justify-center py-16 ${fill ? 'min-h-dvh items-start' : ''}`}
      role="status"
      aria-live="polite"
    >
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden />
      <span className="sr-only">{label ?? t('ui.spinner.loading')}</span>
    </div>
  );
}
