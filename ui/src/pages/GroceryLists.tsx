import { ListPlus, Plus, ShoppingCart } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { GroceryListCard } from '../components/grocery/GroceryListCard';
import { GroceryListForm } from '../components/grocery/GroceryListForm';
import { Button } from '../components/ui/Button';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { Modal } from '../components/ui/Modal';
import { useConfirmDelete } from '../components/ui/useConfirmDelete';
import { useTicks } from '../hooks/tick-context';
import { useFailure } from '../hooks/useFailure';
import {
  useGroceryActions,
  useGroceryLists,
  type GroceryList,
  type ListDraft,
} from '../hooks/useGroceryLists';
import { useRecipes } from '../hooks/useRecipes';
import { useSite } from '../hooks/useSite';
import { overlay } from '../lib/pendingTicks';

/** What the list dialog shows: a new list (maybe from a draft), or a saved one to edit. */
type Editing = { mode: 'create'; draft?: ListDraft } | { mode: 'edit'; list: GroceryList } | null;

/** `/grocery-list`: the family's grocery lists (spec section 2). */
export default function GroceryLists() {
  const { t } = useTranslation();
  const { data: lists, error, isLoading } = useGroceryLists();
  const { data: site } = useSite();
  // The recipes' card sits above the lists: the two appear together, so the one that arrives
  // second does not push the other down the screen.
  const recipes = useRecipes(true);
  const recipesSettled = recipes.data !== undefined || recipes.error !== undefined;
  // The lists first appear in a background render React does in small steps: rendered at once,
  // twenty cards kept a phone from answering a tap for a moment (Lighthouse's blocking time).
  const ready = useDeferredValue(lists !== undefined && recipesSettled);
  const { queue, stalled, tick } = useTicks();
  const { remove } = useGroceryActions();
  const [editing, setEditing] = useState<Editing>(null);
  const deletion = useConfirmDelete({
    remove: (list: GroceryList) => remove(list.id),
    failureTitle: t('grocery.error.delete'),
    done: () => ({ title: t('grocery.deleted') }),
  });
  const currency = site?.currency ?? 'GBP';
  const perItem = site?.groceryItemEstimate ?? 2.5;

  // Ticks on their way (or waiting for a connection) show at once.
  const shown = useMemo(() => (lists ?? []).map((l) => overlay(l, queue)), [lists, queue]);

  return (
    <section className="mx-auto max-w-6xl px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold">{t('grocery.title')}</h1>
        <Button onClick={() => setEditing({ mode: 'create' })}>
          <Plus aria-hidden size={18} /> {t('grocery.newList')}
        </Button>
      </div>
      {stalled ? (
        <p role="status" className="alert alert-warning alert-soft mt-4 text-warning-content">
          {t('grocery.offline')}
        </p>
      ) : null}
      {/* The recipes' card appears with the lists (or with an error), never above a placeholder
          already on the screen, which would count as moved down (a layout shift). */}
      {ready || (error && !lists) ? (
        <FromRecipes onDraft={(draft) => setEditing({ mode: 'create', draft })} />
      ) : null}
      {/* A new element when the lists arrive (the key), not the placeholder's, moved. */}
      <div className="mt-6" key={lists && ready ? 'lists' : 'loading'}>
        {error && !lists ? (
          <div role="alert" className="alert alert-error">
            <div>
              <p className="font-semibold">{t('grocery.error.fetch')}</p>
              <p>{error instanceof Error ? error.message : t('common.unexpectedError')}</p>
            </div>
          </div>
        ) : isLoading || !lists || !ready ? (
          <p role="status" className="min-h-dvh py-10 text-center">
            {t('grocery.loading')}
          </p>
        ) : lists.length === 0 ? (
          <div className="card border border-dashed border-base-300">
            <div className="card-body items-center text-center">
              <ShoppingCart aria-hidden size={40} className="text-base-content/60" />
              <p className="text-lg">{t('grocery.empty')}</p>
              <Button onClick={() => setEditing({ mode: 'create' })}>
                {t('grocery.createFirst')}
              </Button>
            </div>
          </div>
        ) : (
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {shown.map(({ list, pending }) => (
              <GroceryListCard
                key={list.id}
                list={list}
                pending={stalled ? pending : new Set()}
                currency={currency}
                onTick={(item, checked) => tick(list.id, item.id, checked)}
                onEdit={() => setEditing({ mode: 'edit', list })}
                onDelete={() => deletion.ask(list)}
              />
            ))}
          </div>
        )}
      </div>
      <Modal
        open={editing !== null}
        title={editing?.mode === 'edit' ? t('grocery.editTitle') : t('grocery.createTitle')}
        onClose={() => setEditing(null)}
        wide
      >
        {editing ? (
          <GroceryListForm
            key={editing.mode === 'edit' ? editing.list.id : 'new'}
            list={editing.mode === 'edit' ? editing.list : undefined}
            draft={editing.mode === 'create' ? editing.draft : undefined}
            currency={currency}
            perItem={perItem}
            onCancel={() => setEditing(null)}
            onSaved={() => setEditing(null)}
          />
        ) : null}
      </Modal>
      <ConfirmDialog
        {...deletion.dialog}
        title={t('grocery.delete.title')}
        message={
          deletion.target?.name
            ? t('grocery.delete.message', { name: deletion.target.name })
            : t('grocery.delete.messageUnnamed')
        }
        confirmLabel={t('common.delete')}
      />
    </section>
  );
}

/** Generate from Recipes: shown when the family has saved recipes (spec section 2). */
function FromRecipes({ onDraft }: { onDraft: (draft: ListDraft) => void }) {
  const { t } = useTranslation();
  const { data: recipes } = useRecipes(true);
  const { fromRecipes } = useGroceryActions();
  const fail = useFailure();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  if (!recipes || recipes.length === 0) return null;
  // A recipe deleted elsewhere drops out of the choice.
  const ids = [...chosen].filter((id) => recipes.some((r) => r.id === id));
  return (
    <section
      className="card mt-6 border border-base-300 bg-base-100"
      aria-labelledby="from-recipes"
    >
      <div className="card-body gap-3 p-4 sm:p-6">
        <h2 id="from-recipes" className="card-title">
          {t('grocery.fromRecipes.title')}
        </h2>
        <ul className="grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
          {recipes.map((r) => (
            <li key={r.id}>
              <label className="flex min-h-12 cursor-pointer items-center gap-3 rounded-lg px-2 hover:bg-base-200">
                <input
                  type="checkbox"
                  className="checkbox"
                  checked={chosen.has(r.id)}
                  onChange={(e) =>
                    setChosen((all) => {
                      const next = new Set(all);
                      if (e.target.checked) next.add(r.id);
                      else next.delete(r.id);
                      return next;
                    })
                  }
                />
                <span className="min-w-0 wrap-anywhere">{r.title}</span>
              </label>
            </li>
          ))}
        </ul>
        <div>
          <Button
            variant="secondary"
            disabled={ids.length === 0}
            busy={busy}
            onClick={() => {
              setBusy(true);
              fromRecipes(ids)
                .then((draft) => {
                  setChosen(new Set());
                  onDraft(draft);
                })
                .catch((err: unknown) => fail(err, t('grocery.error.save')))
                .finally(() => setBusy(false));
            }}
          >
            <ListPlus aria-hidden size={18} /> {t('grocery.fromRecipes.generate')}
          </Button>
        </div>
      </div>
    </section>
  );
}
