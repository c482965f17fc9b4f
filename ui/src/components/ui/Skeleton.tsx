/**
 * Grey placeholder cards while a list loads: the page keeps its shape on a slow connection
 * instead of showing a small spinner in an empty page. At least the screen's height, so the
 * footer does not jump down when the list arrives.
 */
export function Skeleton({ label, cards = 3 }: { label: string; cards?: number }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="mt-6 grid min-h-dvh content-start gap-4 sm:grid-cols-2 lg:grid-cols-3"
    >
      <span className="sr-only">{label}</span>
      {Array.from({ length: cards }, (_, i) => (
        <div key={i} className="card border border-base-300 bg-base-100" aria-hidden>
          <div className="card-body gap-3 p-4">
            <div className="skeleton h-5 w-2/3" />
            <div className="skeleton h-4 w-1/3" />
            <div className="skeleton h-16 w-full" />
          </div>
        </div>
      ))}
    </div>
  );
}
