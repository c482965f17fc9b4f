import { Baby, Plus, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';

import { savedElsewhere } from '../../api/client';
import {
  useEstimate,
  useGroceryActions,
  type GroceryList,
  type ListDraft,
} from '../../hooks/useGroceryLists';
import { useSubmit } from '../../hooks/useSubmit';
import {
  CATEGORIES,
  DEFAULT_CATEGORY,
  byCategory,
  categoryLabel,
  checkList,
  estimate,
  formItems,
  itemCount,
  mergeAfterConflict,
  newItem,
  snapshotOf,
  type FormItem,
} from '../../lib/grocery';
import { formatMoney } from '../../lib/recipes';
import { Button } from '../ui/Button';
import { FormActions } from '../ui/FormActions';
import { Input, Select } from '../ui/Input';
import { useToast } from '../ui/toast-context';
import { ExportMenu } from './ExportMenu';

interface FormProps {
  /** The saved list being edited; none for a new list. */
  list?: GroceryList;
  /** What a new list starts with (a draft from recipes or the meal plan). */
  draft?: ListDraft;
  currency: string;
  /** The estimate for an item the catalogue cannot price. */
  perItem: number;
  onCancel: () => void;
  onSaved: (list: GroceryList) => void;
}

/**
 * The list form of the Create and Edit Grocery List dialogs (spec section 2). A save refused
 * because the list changed elsewhere keeps everything the parent changed, takes the other
 * device's changes where the parent changed nothing (`mergeAfterConflict`), and shows what is
 * saved now; saving again saves what the form shows.
 */
export function GroceryListForm({ list, draft, currency, perItem, onCancel, onSaved }: FormProps) {
  const { t } = useTranslation();
  const { create, update } = useGroceryActions();
  const { toast } = useToast();
  const [name, setName] = useState(list?.name ?? draft?.name ?? t('grocery.form.defaultName'));
  const [items, setItems] = useState<FormItem[]>(() =>
    formItems(list?.items ?? draft?.items ?? []),
  );
  // What a draft's items mean for the children (allergies, choking, age rules), by name.
  const [notes] = useState(() => new Map((draft?.notes ?? []).map((n) => [n.name, n.notes])));
  const [version, setVersion] = useState(list?.version);
  const [opened, setOpened] = useState(() => snapshotOf(list?.items ?? []));
  const [conflict, setConflict] = useState<GroceryList | null>(null);
  const [itemName, setItemName] = useState('');
  const [quantity, setQuantity] = useState('');
  const [category, setCategory] = useState<string>(DEFAULT_CATEGORY);
  // Chosen by the parent for the item being written: no suggestion replaces it.
  const [categoryChosen, setCategoryChosen] = useState(false);
  const itemInput = useRef<HTMLInputElement>(null);
  // The server estimates the list as it will estimate it saved, and suggests a category for
  // the item being written (from its name: "cheese" is Dairy, "nappies" Baby).
  const listEstimate = useEstimate(items);
  const typed = useEstimate(itemName.trim() ? [{ name: itemName, quantity }] : []);
  const suggested = typed.current?.items[0]?.suggestedCategory;
  const shownCategory = categoryChosen ? category : (suggested ?? category);

  const submit = useSubmit(
    (signal) => {
      const body = {
        name,
        items: items.map(({ id, name, quantity, category, checked }) => ({
          id,
          name,
          quantity,
          category,
          checked,
        })),
        version,
      };
      return list ? update(list.id, body, signal) : create(body, signal);
    },
    {
      failureTitle: list ? t('grocery.error.update') : t('grocery.error.save'),
      check: () => checkList(name, items),
      onSuccess: (saved) => {
        toast({
          variant: 'success',
          title: t('grocery.form.successTitle'),
          description: list ? t('grocery.form.updated') : t('grocery.form.created'),
        });
        onSaved(saved);
      },
      onFailure: (err) => {
        const current = savedElsewhere(err, 'groceryList');
        if (!current) return false;
        setItems((typed) => mergeAfterConflict(typed, opened, current.items));
        setOpened(snapshotOf(current.items));
        setVersion(current.version);
        setConflict(current);
        toast({
          title: t('grocery.error.update'),
          description: t('grocery.form.conflict'),
        });
        return true;
      },
    },
  );

  const add = () => {
    const made = newItem(itemName, quantity, shownCategory);
    if (!('key' in made)) {
      toast({ title: made.title, description: made.message });
      itemInput.current?.focus();
      return;
    }
    setItems((all) => [...all, made]);
    setItemName('');
    setQuantity('');
    setCategory(DEFAULT_CATEGORY);
    setCategoryChosen(false);
    itemInput.current?.focus();
  };

  const set = (key: string, change: Partial<FormItem>) =>
    setItems((all) => all.map((i) => (i.key === key ? { ...i, ...change } : i)));

  // The server's answer for exactly these items; until it comes, the prices already known.
  const current = listEstimate.current;
  const priceOf = (index: number, item: FormItem) =>
    current ? current.items[index]?.knownPrice : item.knownPrice;
  const local = estimate(
    items.map((item, i) => ({ knownPrice: priceOf(i, item) })),
    perItem,
  );
  const { total, priced } = current
    ? { total: current.estimatedTotal, priced: current.pricedItems }
    : local;
  const prices = new Map(items.map((item, i) => [item.key, priceOf(i, item)]));

  return (
    <form className="space-y-4" onSubmit={submit.onSubmit} noValidate>
      {conflict ? <SavedNow list={conflict} /> : null}
      <Input
        label={t('grocery.form.name')}
        value={name}
        error={submit.fieldErrors.name}
        maxLength={100}
        onChange={(e) => {
          setName(e.target.value);
          submit.clearFieldError('name');
        }}
      />
      <fieldset className="rounded-box border border-base-300 p-3">
        <legend className="px-1 text-sm font-medium">{t('grocery.form.addItem')}</legend>
        <div className="grid gap-2 sm:grid-cols-[2fr_1fr_1.5fr_auto] sm:items-end">
          <Input
            ref={itemInput}
            label={t('grocery.form.itemName')}
            value={itemName}
            error={submit.fieldErrors.item}
            onChange={(e) => {
              setItemName(e.target.value);
              submit.clearFieldError('item');
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
            autoComplete="off"
            enterKeyHint="done"
          />
          <Input
            label={t('grocery.form.quantity')}
            value={quantity}
            placeholder="1"
            onChange={(e) => setQuantity(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
            autoComplete="off"
          />
          <Select
            label={t('grocery.form.category')}
            value={shownCategory}
            onChange={(e) => {
              setCategory(e.target.value);
              setCategoryChosen(true);
            }}
          >
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {categoryLabel(c)}
              </option>
            ))}
          </Select>
          <Button variant="secondary" onClick={add} aria-label={t('grocery.form.addItemButton')}>
            <Plus aria-hidden size={18} /> {t('common.add')}
          </Button>
        </div>
      </fieldset>
      {items.length === 0 ? (
        <p className="text-center text-base-content/70">{t('grocery.noItems')}</p>
      ) : (
        <div
          className="max-h-[45dvh] space-y-3 overflow-y-auto"
          aria-label={t('grocery.form.items')}
        >
          {byCategory(items).map((group) => (
            <section key={group.category} aria-label={categoryLabel(group.category)}>
              <h3 className="text-sm font-semibold text-base-content/70">
                {categoryLabel(group.category)}
              </h3>
              <ul>
                {group.items.map((item) => (
                  <li key={item.key} className="flex min-h-12 items-center gap-3">
                    <input
                      type="checkbox"
                      className="checkbox"
                      checked={item.checked}
                      aria-label={t('grocery.form.itemChecked', { name: item.name })}
                      onChange={(e) => set(item.key, { checked: e.target.checked })}
                    />
                    <div className="min-w-0 flex-1">
                      <span
                        className={`break-words ${item.checked ? 'line-through text-base-content/70' : ''}`}
                      >
                        {item.name}
                      </span>
                      {notes.has(item.name) ? (
                        <ul
                          className="text-xs"
                          aria-label={t('grocery.form.notesOn', { name: item.name })}
                        >
                          {notes.get(item.name)?.map((note) => (
                            <li key={note} className="flex gap-1">
                              <Baby
                                aria-hidden
                                size={14}
                                className="mt-0.5 shrink-0 text-warning"
                              />
                              <span className="min-w-0 wrap-anywhere">{note}</span>
                            </li>
                          ))}
                        </ul>
                      ) : null}
                    </div>
                    <span className="badge badge-ghost">{item.quantity}</span>
                    {typeof prices.get(item.key) === 'number' ? (
                      <span
                        className="text-xs text-base-content/70"
                        title={t('grocery.form.cataloguePrice')}
                      >
                        {formatMoney(prices.get(item.key) ?? 0, currency)}
                      </span>
                    ) : null}
                    <button
                      type="button"
                      className="btn btn-ghost btn-square btn-sm"
                      aria-label={t('grocery.form.removeItem', { name: item.name })}
                      onClick={() => setItems((all) => all.filter((i) => i.key !== item.key))}
                    >
                      <X aria-hidden size={18} />
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span>{itemCount(items.length)}</span>
        <span>
          <Trans
            i18nKey="grocery.form.total"
            values={{ total: formatMoney(total, currency) }}
            components={{ strong: <strong /> }}
          />
          <span className="block text-xs text-base-content/70">
            {priced > 0
              ? t('grocery.form.priced', {
                  count: priced,
                  price: formatMoney(perItem, currency),
                })
              : t('grocery.form.perItem', { price: formatMoney(perItem, currency) })}
          </span>
        </span>
      </div>
      <FormActions
        layout="wrap"
        onCancel={() => {
          submit.cancel();
          onCancel();
        }}
        between={<ExportMenu list={list ?? null} />}
        busy={submit.busy}
      >
        {t('grocery.form.save')}
      </FormActions>
      {list ? null : (
        <p className="text-right text-xs text-base-content/70">
          {t('grocery.form.exportAfterSave')}
        </p>
      )}
    </form>
  );
}

/** After a 409: the list as saved now, so the parent can see what the other device changed. */
function SavedNow({ list }: { list: GroceryList }) {
  const { t } = useTranslation();
  return (
    <div role="status" className="alert alert-warning alert-soft items-start text-sm">
      <div>
        <p className="font-medium">{t('grocery.form.savedNow')}</p>
        <p className="mt-1">
          <strong>{list.name}</strong>
          {t('grocery.form.savedNowItems', {
            items:
              list.items
                .map((i) => `${i.checked ? '✓ ' : ''}${i.name} (${i.quantity})`)
                .join(', ') || t('grocery.form.savedNowEmpty'),
          })}
        </p>
        <p className="mt-1">{t('grocery.form.saveAgain')}</p>
      </div>
    </div>
  );
}
