import { Pencil, Plus, Salad, ShieldCheck, Trash2 } from 'lucide-react';
import { useState } from 'react';
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
  const { data: children, isLoading, error } = useChildren();
  const { remove } = useChildActions();
  const { toast } = useToast();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const removal = useConfirmDelete({
    remove: (child: Child, signal) => remove(child.id, signal),
    failureTitle: 'Error',
    done: () => ({ title: 'Child removed' }),
    onFailure: () => {
      toast({ title: 'Error', description: 'Failed to remove child. Please try again.' });
      return true;
    },
    closeOnFailure: true,
  });
  const removing = removal.target;
  const preview = useDeletePreview(removing?.id ?? null);

  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Children</h1>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => setAdding(true)}
          disabled={adding}
        >
          <Plus aria-hidden size={18} /> Add Child
        </button>
      </div>

      {adding ? (
        <div className="card mt-6 border border-base-300 bg-base-100">
          <div className="card-body">
            <h2 className="card-title">Add Child</h2>
            <ChildForm onDone={() => setAdding(false)} onCancel={() => setAdding(false)} />
          </div>
        </div>
      ) : null}

      {isLoading ? <Skeleton label="Loading children" /> : null}
      {error ? <p className="mt-6 text-error">Error fetching children</p> : null}
      {children && children.length === 0 && !adding ? (
        <p className="mt-10 text-center text-base-content/70">No children added yet</p>
      ) : null}

      <ul className="mt-6 grid gap-4 sm:grid-cols-2" aria-label="Children">
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
                      aria-label={`Dietary restrictions of ${child.name}`}
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
                    <ul className="flex flex-wrap gap-1" aria-label={`Allergies of ${child.name}`}>
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
                      aria-label={`Food history of ${child.name}`}
                    >
                      <Salad aria-hidden size={16} /> Food history
                    </Link>
                    <Link
                      to={pathTo(routes.childAllergens, { id: child.id })}
                      className="btn btn-ghost btn-sm"
                      aria-label={`Allergens of ${child.name}`}
                    >
                      <ShieldCheck aria-hidden size={16} /> Allergens
                    </Link>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      onClick={() => setEditing(child.id)}
                    >
                      <Pencil aria-hidden size={16} /> Edit
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm text-error"
                      onClick={() => removal.ask(child)}
                    >
                      <Trash2 aria-hidden size={16} /> Remove
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
        title="Remove child"
        message={`Are you sure you want to remove ${removing?.name ?? ''}? This action cannot be undone.`}
        detail={
          preview.data
            ? goesWith(preview.data.meals, preview.data.photos)
            : 'Counting the meals that go with this child...'
        }
        confirmLabel="Remove"
      />
    </section>
  );
}
