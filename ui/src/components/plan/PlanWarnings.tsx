import { ShieldAlert } from 'lucide-react';

interface PlanWarning {
  childId: string;
  childName: string;
  message: string;
}

/**
 * The children a planned meal is not safe for, and why (the server's allergen matcher): on
 * the week view, the co-parent's week and the entry form before it is saved.
 */
export function PlanWarnings({
  warnings,
  className = 'text-xs',
}: {
  warnings: readonly PlanWarning[];
  className?: string;
}) {
  if (warnings.length === 0) return null;
  return (
    <ul className={`mt-1 space-y-1 ${className}`} aria-label="Allergy warnings">
      {warnings.map((w) => (
        <li key={w.childId} className="flex gap-1 text-error">
          <ShieldAlert aria-hidden size={14} className="mt-0.5 shrink-0" />
          <span className="min-w-0 wrap-anywhere">
            {w.childName} is allergic: {w.message}
          </span>
        </li>
      ))}
    </ul>
  );
}
