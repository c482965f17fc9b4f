/** The product's name: the same in every language. */
export const PRODUCT_NAME = 'Highchair';

/** The Highchair mark: a little high chair. */
export function LogoMark({ className = 'h-8 w-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden focusable="false">
      <rect width="64" height="64" rx="14" className="fill-primary" />
      <path
        d="M20 14v36M20 30h22a4 4 0 0 0 4-4V14M24 50h-8M46 30v20M50 50h-8"
        className="stroke-primary-content"
        strokeWidth="5"
        strokeLinecap="round"
        strokeLinejoin="round"
        fill="none"
      />
    </svg>
  );
}
