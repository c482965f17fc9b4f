import { TriangleAlert } from 'lucide-react';

/**
 * What in a recipe one of the family's children is allergic to, in the server's words
 * ("Peanut butter contains peanuts (peanut)"): a saved recipe's page and an imported draft.
 */
export function AllergyWarnings({ warnings }: { warnings: readonly string[] }) {
  if (warnings.length === 0) return null;
  return (
    <div role="alert" className="alert alert-warning items-start">
      <TriangleAlert aria-hidden className="shrink-0" />
      <div>
        <p className="font-semibold">Allergy warning</p>
        <ul className="list-disc pl-5">
          {warnings.map((w, k) => (
            <li key={k}>{w}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}
