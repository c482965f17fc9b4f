import { Pencil, Plus, Salad, ShieldCheck, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { ChildForm } from '../components/children/ChildForm';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { Skeleton } from '../components/ui/Skeleton';
import { useToast } from '../components/ui/toast-context';
import { useConfirmDelete } from '../components/ui/useConfirmDelete';
import { useChildActions, useChildren, useDeletePreview, type Child } from '../hooks/useChildren';
import { ageBadge, monthsAge, goesWith } from '../lib/meals';
import { pathTo, routes } from '../routes';

export default function Children() {
  const { t } = useTranslation();
  const { data: children, isLoading, error } = useChildren();
  const { remove } = useChildActions();
  const { toast } = useToast();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const removal = useConfirmDelete({
    remove: (child: Child, signal) => remove(child.id, signal),
    failureTitle: t('children.error'),
    done: () => ({ title: t('children.page.removed') }),
    onFailure: () => {
      toast({ title: t('children.error'), description: t('children.page.removeFailed') });
      return true;
    },
    closeOnFailure: true,
  });
  const removing = removal.target;
  const preview = useDeletePreview(removing?.id ?? null);

  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{t('children.title')}</h1>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => setAdding(true)}
          disabled={adding}
        >
          <Plus aria-hidden size={18} /> {t('children.add')}
        </button>
      </div>

      {adding ? (
        <div className="card mt-6 border border-base-300 bg-base-100">
          <div className="card-body">
            <h2 className="card-title">{t('children.add')}</h2>
            <ChildForm onDone={() => setAdding(false)} onCancel={() => setAdding(false)} />
          </div>
        </div>
      ) : null}

      {isLoading ? <Skeleton label={t('children.loading')} /> : null}
      {error ? <p className="mt-6 text-error">{t('children.fetchError')}</p> : null}
      {children && children.length === 0 && !adding ? (
        <p className="mt-10 text-center text-base-content/70">{t('children.page.empty')}</p>
      ) : null}

      <ul className="mt-6 grid gap-4 sm:grid-cols-2" aria-label={t('children.title')}>
        {children?.map((child) => (
          <li key={child.id} className="card border border-base-300 bg-base-100">
            <div className="card-body gap-3">
              {editing === child.id ? (
                <ChildForm
                  child={child}
                  onDone={() => setEditing(null)}
                  onCancel={() => setEditing(null)}
                />
              ) : (
                <>
                  <div className="flex items-center justify-between gap-2">
                    <h2 className="card-title">{child.name}</h2>
                    {monthsAge(child.monthsOld) ? (
                      <span className="badge badge-primary">{monthsAge(child.monthsOld)}</span>
                    ) : child.age != null ? (
                      <span className="badge badge-primary">{ageBadge(child.age)}</span>
                    ) : null}
                  </div>
                  {child.dietaryRestrictions.length > 0 ? (
                    <ul
                      className="flex flex-wrap gap-1"
                      aria-label={t('children.page.restrictionsOf', { name: child.name })}
                    >
                      {child.dietaryRestrictions.map((r) => (
                        <li
                          key={r}
                          className="badge badge-secondary badge-outline h-auto min-h-5 py-0.5"
                        >
                          {r}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  {child.allergies.length > 0 ? (
                    <ul
                      className="flex flex-wrap gap-1"
                      aria-label={t('children.page.allergiesOf', { name: child.name })}
                    >
                      {child.allergies.map((a) => (
                        <li key={a} className="badge badge-error badge-soft h-auto min-h-5 py-0.5">
                          {a}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  <div className="card-actions justify-end">
                    <Link
                      to={pathTo(routes.childFoods, { id: child.id })}
                      className="btn btn-ghost btn-sm"
                      aria-label={t('children.page.foodHistoryOf', { name: child.name })}
                    >
                      <Salad aria-hidden size={16} /> {t('children.foodHistory.title')}
                    </Link>
                    <Link
                      to={pathTo(routes.childAllergens, { id: child.id })}
                      className="btn btn-ghost btn-sm"
                      aria-label={t('children.page.allergensOf', { name: child.name })}
                    >
                      <ShieldCheck aria-hidden size={16} /> {t('children.page.allergens')}
                    </Link>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      onClick={() => setEditing(child.id)}
                    >
                      <Pencil aria-hidden size={16} /> {t('common.edit')}
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm text-error"
                      onClick={() => removal.ask(child)}
                    >
                      <Trash2 aria-hidden size={16} /> {t('common.remove')}
                    </button>
                  </div>
                </>
              )}
            </div>
          </li>
        ))}
      </ul>

      <ConfirmDialog
        {...removal.dialog}
        title={t('children.page.removeTitle')}
        message={t('children.page.removeText', { name: removing?.name ?? '' })}
        detail={
          preview.data
            ? goesWith(preview.data.meals, preview.data.photos)
            : t('children.page.counting')
        }
        confirmLabel={t('common.remove')}
      />
    </section>
  );
}
