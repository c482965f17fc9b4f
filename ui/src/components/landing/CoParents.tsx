import { useTranslation } from 'react-i18next';

/** The two drawn views; texts are keys under `landing.coParents`, resolved at render. */
const views = [
  {
    id: 'mum',
    rows: [
      { emoji: '😋', id: 'breakfast' },
      { emoji: '😐', id: 'lunch' },
    ],
  },
  {
    id: 'dad',
    rows: [
      { emoji: '😋', id: 'ate' },
      { emoji: '🛒', id: 'groceries' },
    ],
  },
];

export function CoParents() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto max-w-6xl px-4 py-16" aria-labelledby="co-parents">
      <h2 id="co-parents" className="text-center text-3xl font-bold">
        {t('landing.coParents.title')}
      </h2>
      <p className="mx-auto mt-3 max-w-2xl text-center text-base-content/80">
        {t('landing.coParents.intro')}
      </p>
      <div className="mt-10 grid gap-6 md:grid-cols-2">
        {views.map((v) => (
          <figure key={v.id} className="card border border-base-300 bg-base-100 shadow-sm">
            <div className="card-body">
              <figcaption>
                <p className="card-title">{t(`landing.coParents.${v.id}.who`)}</p>
                <p className="text-sm text-base-content/70">
                  {t(`landing.coParents.${v.id}.note`)}
                </p>
              </figcaption>
              <ul className="mt-2 space-y-2">
                {v.rows.map((r) => (
                  <li key={r.id} className="flex items-center gap-3 rounded-box bg-base-200 p-3">
                    <span className="text-xl" aria-hidden>
                      {r.emoji}
                    </span>
                    <div>
                      <p className="text-sm font-medium">
                        {t(`landing.coParents.${v.id}.${r.id}.text`)}
                      </p>
                      <p className="text-xs text-base-content/70">
                        {t(`landing.coParents.${v.id}.${r.id}.detail`)}
                      </p>
                    </div>
                  </li>
                ))}
              </ul>
            </div>
          </figure>
        ))}
      </div>
    </section>
  );
}
