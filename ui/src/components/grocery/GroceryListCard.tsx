import { CloudOff, Pencil, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import type { GroceryItem, GroceryList } from '../../hooks/useGroceryLists';
import { formatDate } from '../../lib/dates';
import { checkedSummary } from '../../lib/grocery';
import { formatMoney } from '../../lib/recipes';

interface CardProps {
  list: GroceryList;
  /** Items whose tick has not reached the server yet. */
  pending: ReadonlySet<string>;
  currency: string;
  onTick: (item: GroceryItem, checked: boolean) => void;
  /** Left out where the list can only be ticked (a co-parent's view). */
  onEdit?: () => void;
  onDelete?: () => void;
}

/** Created on "24 Nov 2026". */
function created(iso: string): string {
  return formatDate(iso, 'medium');
}

/**
 * A list on the grocery screen (spec section 2): unchecked items with their quantity, a Checked
 * Items section, and 'X of Y items checked'. Every row is a large target for one thumb in a shop.
 */
export function GroceryListCard({ list, pending, currency, onTick, onEdit, onDelete }: CardProps) {
  const { t } = useTranslation();
  // Worded once per card: a hook per row of a 50-item list is felt on a phone (Lighthouse).
  const waiting = { label: t('grocery.card.pending'), title: t('grocery.card.waiting') };
  const open = list.items.filter((i) => !i.checked);
  const done = list.items.filter((i) => i.checked);
  return (
    <article className="card border border-base-300 bg-base-100" aria-label={list.name}>
      <div className="card-body gap-3 p-4 sm:p-6">
        <header className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 className="card-title wrap-anywhere">{list.name}</h2>
            <p className="text-sm text-base-content/70">
              {t('grocery.card.created', { date: created(list.createdAt) })}
            </p>
          </div>
          {onEdit && onDelete ? (
            <div className="flex shrink-0 gap-1">
              <button
                type="button"
                className="btn btn-ghost btn-square"
                aria-label={t('grocery.card.edit', { name: list.name })}
                onClick={onEdit}
              >
                <Pencil aria-hidden size={20} />
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-square"
                aria-label={t('grocery.card.delete', { name: list.name })}
                onClick={onDelete}
              >
                <Trash2 aria-hidden size={20} />
              </button>
            </div>
          ) : null}
        </header>
        {list.items.length === 0 ? (
          <p className="text-base-content/70">{t('grocery.noItems')}</p>
        ) : (
          <>
            {open.length > 0 ? (
              <ul className="-mx-2" aria-label={t('grocery.card.toBuy', { name: list.name })}>
                {open.map((item) => (
                  <ItemRow
                    key={item.id}
                    item={item}
                    pending={pending.has(item.id) ? waiting : null}
                    onTick={onTick}
                  />
                ))}
              </ul>
            ) : null}
            {done.length > 0 ? (
              <section aria-label={t('grocery.card.checkedOf', { name: list.name })}>
                <h3 className="text-sm font-semibold text-base-content/70">
                  {t('grocery.card.checked')}
                </h3>
                <ul className="-mx-2">
                  {done.map((item) => (
                    <ItemRow
                      key={item.id}
                      item={item}
                      pending={pending.has(item.id) ? waiting : null}
                      onTick={onTick}
                    />
                  ))}
                </ul>
              </section>
            ) : null}
          </>
        )}
        <footer className="flex flex-wrap items-center justify-between gap-2 border-t border-base-300 pt-3 text-sm">
          <span aria-live="polite">{checkedSummary(list.items)}</span>
          <span className="text-base-content/70">
            {t('grocery.card.estimate', { total: formatMoney(list.estimatedTotal, currency) })}
          </span>
        </footer>
      </div>
    </article>
  );
}

function ItemRow({
  item,
  pending,
  onTick,
}: {
  item: GroceryItem;
  /** The Pending badge's words while the tick waits for the server; null when it does not. */
  pending: { label: string; title: string } | null;
  onTick: (item: GroceryItem, checked: boolean) => void;
}) {
  return (
    <li>
      <label className="flex min-h-12 cursor-pointer items-center gap-3 rounded-lg px-2 py-1 hover:bg-base-200">
        <input
          type="checkbox"
          className="checkbox checkbox-primary"
          checked={item.checked}
          onChange={(e) => onTick(item, e.target.checked)}
        />
        <span
          className={`min-w-0 flex-1 wrap-anywhere ${item.checked ? 'text-base-content/70 line-through' : ''}`}
        >
          {item.name}
        </span>
        {pending ? (
          <span className="badge badge-warning badge-sm gap-1" title={pending.title}>
            <CloudOff aria-hidden size={12} /> {pending.label}
          </span>
        ) : null}
        <span className="badge badge-ghost">{item.quantity}</span>
      </label>
    </li>
  );
}
