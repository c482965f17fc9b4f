import { useTranslation } from 'react-i18next';

export interface SavedValue {
  label: string;
  value: string;
}

/**
 * After a 409: what is saved now, for the fields where it differs from what the parent typed.
 * The form keeps the typed values; saving again replaces the saved ones.
 */
export function SavedElsewhere({ values }: { values: SavedValue[] }) {
  const { t } = useTranslation();
  if (values.length === 0) return null;
  return (
    <div
      role="status"
      className="alert alert-warning alert-soft items-start text-sm text-warning-content"
    >
      <div>
        <p className="font-medium">{t('ui.savedElsewhere.title')}</p>
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3">
          {values.map((v) => (
            <div key={v.label} className="contents">
              <dt className="text-base-content/70">{v.label}</dt>
              <dd>{v.value}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-1">{t('ui.savedElsewhere.hint')}</p>
      </div>
    </div>
  );
}
