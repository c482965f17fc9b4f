import { Check, Search, ShieldAlert } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { Catalogue } from '../../hooks/useRecipes';

interface IngredientPickerProps {
  catalogue: Catalogue | undefined;
  selected: string[];
  onChange: (selected: string[]) => void;
  disabled?: boolean;
  /** Ingredients the request's or the children's allergies (or restrictions) leave out, and why. */
  leftOut?: ReadonlyMap<string, string>;
}

const NONE_LEFT_OUT: ReadonlyMap<string, string> = new Map();

/**
 * Ingredients by category and subcategory, with a search; chosen ones are listed on top. An
 * ingredient the allergies or restrictions rule out is marked, and when it is chosen the form
 * says plainly that it will be left out and for whom.
 */
export function IngredientPicker({
  catalogue,
  selected,
  onChange,
  disabled,
  leftOut = NONE_LEFT_OUT,
}: IngredientPickerProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState(0);
  const q = query.trim().toLowerCase();
  const toggle = (name: string) =>
    onChange(selected.includes(name) ? selected.filter((s) => s !== name) : [...selected, name]);

  // Names are shown in the family's language; the request names the catalogue's own.
  const labels = useMemo(
    () =>
      new Map(
        catalogue?.categories.flatMap((c) =>
          c.subcategories.flatMap((s) => s.ingredients.map((i) => [i.name, i.label] as const)),
        ),
      ),
    [catalogue],
  );
  const label = (name: string) => labels.get(name) ?? name;

  const groups = useMemo(() => {
    if (!catalogue) return [];
    const cats = q ? catalogue.categories : catalogue.categories.slice(category, category + 1);
    const matches = (i: { name: string; label: string }) =>
      !q || i.label.toLowerCase().includes(q) || i.name.toLowerCase().includes(q);
    return cats.flatMap((c) =>
      c.subcategories
        .map((s) => ({
          key: `${c.name} · ${s.name}`,
          title: q ? `${c.label} · ${s.label}` : s.label,
          items: s.ingredients.filter(matches),
        }))
        .filter((s) => s.items.length > 0),
    );
  }, [catalogue, category, q]);

  if (!catalogue) {
    return <div className="skeleton h-48 w-full" aria-label={t('recipes.picker.loading')} />;
  }
  return (
    <fieldset disabled={disabled} className="space-y-3">
      <legend className="mb-1 font-medium">{t('recipes.picker.legend')}</legend>
      {selected.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label={t('recipes.picker.chosen')}>
          {selected.map((name) => (
            <li key={name}>
              <button
                type="button"
                className={`badge gap-1 py-3 ${leftOut.has(name) ? 'badge-error' : 'badge-primary'}`}
                onClick={() => toggle(name)}
                aria-label={t('recipes.picker.remove', { name: label(name) })}
              >
                {label(name)} ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-base-content/70">{t('recipes.picker.chooseOne')}</p>
      )}
      {selected.some((name) => leftOut.has(name)) ? (
        <ul className="space-y-1 text-sm text-error" aria-label={t('recipes.picker.leftOut')}>
          {selected
            .filter((name) => leftOut.has(name))
            .map((name) => (
              <li key={name} className="flex gap-1">
                <ShieldAlert aria-hidden size={16} className="mt-0.5 shrink-0" />
                <span className="min-w-0 wrap-anywhere">{leftOut.get(name)}</span>
              </li>
            ))}
        </ul>
      ) : null}
      <label className="input input-bordered flex items-center gap-2">
        <Search aria-hidden size={16} />
        <input
          type="search"
          className="grow"
          placeholder={t('recipes.picker.search')}
          aria-label={t('recipes.picker.search')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </label>
      {q ? null : (
        <div
          role="tablist"
          aria-label={t('recipes.picker.categories')}
          className="flex flex-wrap gap-1"
        >
          {catalogue.categories.map((c, i) => (
            <button
              key={c.name}
              type="button"
              role="tab"
              aria-selected={i === category}
              className={`btn btn-sm ${i === category ? 'btn-secondary' : 'btn-ghost'}`}
              onClick={() => setCategory(i)}
            >
              {c.label}
            </button>
          ))}
        </div>
      )}
      <div className="max-h-80 space-y-3 overflow-y-auto pr-1">
        {groups.length === 0 ? <p>{t('recipes.picker.noMatch', { query: query.trim() })}</p> : null}
        {groups.map((g) => (
          <div key={g.key}>
            <h3 className="mb-1 text-sm font-semibold text-base-content/80">{g.title}</h3>
            <div className="flex flex-wrap gap-2">
              {g.items.map((i) => {
                const on = selected.includes(i.name);
                const why = leftOut.get(i.name);
                return (
                  <button
                    key={i.name}
                    type="button"
                    aria-pressed={on}
                    aria-description={why}
                    title={why}
                    className={`btn btn-sm ${on ? '' : 'btn-outline'} ${why ? 'btn-error' : on ? 'btn-primary' : ''}`}
                    onClick={() => toggle(i.name)}
                  >
                    {on ? <Check aria-hidden size={14} /> : null}
                    {why ? (
                      <ShieldAlert aria-label={t('recipes.picker.leftOutIcon')} size={14} />
                    ) : null}
                    {i.label}
                  </button>
                );
              })}
            </div>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
