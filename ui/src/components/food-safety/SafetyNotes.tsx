import { Baby } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/**
 * Each child's choking and age notes for a recipe, in the server's words ("For Leo (9 months):
 * quarter the grapes lengthways; no honey before 12 months"). They advise; they never hide the
 * recipe.
 */
export function SafetyNotes({
  notes,
  className = 'text-sm',
}: {
  notes: readonly string[];
  className?: string;
}) {
  const { t } = useTranslation();
  if (notes.length === 0) return null;
  return (
    <ul className={`space-y-1 ${className}`} aria-label={t('foodSafety.notesForChildren')}>
      {notes.map((note) => (
        <li key={note} className="flex gap-1">
          <Baby aria-hidden size={16} className="mt-0.5 shrink-0 text-warning" />
          <span className="min-w-0 wrap-anywhere">{note}</span>
        </li>
      ))}
    </ul>
  );
}
