export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex justify-center py-16" role="status" aria-live="polite">
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden />
      <span className="sr-only">{label}</span>
    </div>
  );
}
