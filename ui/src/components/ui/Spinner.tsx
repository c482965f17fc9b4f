/**
 * `fill`: a whole page is loading. The spinner then takes the screen's height, so the footer
 * stays below it instead of jumping down when the page arrives (a layout shift).
 */
export function Spinner({ label = 'Loading', fill = false }: { label?: string; fill?: boolean }) {
  return (
    <div
      className={`flex justify-center py-16 ${fill ? 'min-h-dvh items-start' : ''}`}
      role="status"
      aria-live="polite"
    >
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden />
      <span className="sr-only">{label}</span>
    </div>
  );
}
