import { Printer } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';

import { Button } from '../components/ui/Button';
import { Spinner } from '../components/ui/Spinner';
import { useGroceryList } from '../hooks/useGroceryLists';
import { useSite } from '../hooks/useSite';
import { byCategory, categoryLabel, checkedSummary } from '../lib/grocery';
import { formatMoney } from '../lib/recipes';
import { routes } from '../routes';

/** `/grocery-list/:id/print`: one list on paper, grouped by category, with boxes to tick. */
export default function GroceryPrint() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data: list, error } = useGroceryList(id);
  const { data: site } = useSite();
  if (error && !list) {
    return (
      <section className="mx-auto max-w-2xl px-4 py-10">
        <div role="alert" className="alert alert-error">
          <div>
            <p className="font-semibold">{t('grocery.error.fetch')}</p>
            <p>{error instanceof Error ? error.message : t('common.unexpectedError')}</p>
          </div>
        </div>
        <Link to={routes.groceryList} className="btn btn-link mt-4 px-0">
          {t('grocery.print.back')}
        </Link>
      </section>
    );
  }
  if (!list) return <Spinner label={t('grocery.print.loading')} />;
  return (
    <section className="mx-auto max-w-2xl px-4 py-8 print:max-w-none print:p-0">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to={routes.groceryList} className="btn btn-link px-0">
          {t('grocery.print.back')}
        </Link>
        <Button onClick={() => window.print()}>
          <Printer aria-hidden size={18} /> {t('grocery.print.print')}
        </Button>
      </div>
      <h1 className="text-2xl font-bold">{list.name}</h1>
      <p className="text-sm text-base-content/70">
        {t('grocery.print.summary', {
          summary: checkedSummary(list.items),
          total: formatMoney(list.estimatedTotal, site?.currency ?? 'GBP'),
        })}
      </p>
      {byCategory(list.items).map((group) => (
        <section key={group.category} className="mt-4 break-inside-avoid">
          <h2 className="border-b border-base-300 font-semibold">
            {categoryLabel(group.category)}
          </h2>
          <ul className="mt-1">
            {group.items.map((item) => (
              <li key={item.id} className="flex gap-3 py-0.5">
                <span aria-hidden className="font-mono">
                  {/* eslint-disable-next-line i18next/no-literal-string -- printed tick boxes, not words */}
                  {item.checked ? '☑' : '☐'}
                </span>
                <span className={item.checked ? 'line-through' : ''}>
                  {item.name}
                  <span className="sr-only">
                    {item.checked ? ` ${t('grocery.print.checked')}` : ''}
                  </span>
                </span>
                <span className="ml-auto text-base-content/70">{item.quantity}</span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
