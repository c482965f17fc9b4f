const views = [
  {
    who: "Mum's view",
    note: 'Records the meals at home',
    rows: [
      { emoji: '😋', text: 'Emma – Breakfast: porridge, banana', detail: 'Loved it' },
      { emoji: '😐', text: 'Emma – Lunch: soup, bread', detail: 'Half portion' },
    ],
  },
  {
    who: "Dad's view",
    note: 'Sees the day through a shared link and PIN',
    rows: [
      { emoji: '😋', text: 'Emma ate porridge and banana', detail: 'Breakfast, 7:45' },
      { emoji: '🛒', text: 'Grocery list: 6 of 9 items checked', detail: 'Weekly shop' },
    ],
  },
];

export function CoParents() {
  return (
    <section className="mx-auto max-w-6xl px-4 py-16" aria-labelledby="co-parents">
      <h2 id="co-parents" className="text-center text-3xl font-bold">
        Made for Co-Parents
      </h2>
      <p className="mx-auto mt-3 max-w-2xl text-center text-base-content/80">
        Whether you share a home or share the week, both parents see what the children ate. A
        co-parent needs no account: just an invite link and a 6-digit PIN.
      </p>
      <div className="mt-10 grid gap-6 md:grid-cols-2">
        {views.map((v) => (
          <figure key={v.who} className="card border border-base-300 bg-base-100 shadow-sm">
            <div className="card-body">
              <figcaption>
                <p className="card-title">{v.who}</p>
                <p className="text-sm text-base-content/70">{v.note}</p>
              </figcaption>
              <ul className="mt-2 space-y-2">
                {v.rows.map((r) => (
                  <li key={r.text} className="flex items-center gap-3 rounded-box bg-base-200 p-3">
                    <span className="text-xl" aria-hidden>
                      {r.emoji}
                    </span>
                    <div>
                      <p className="text-sm font-medium">{r.text}</p>
                      <p className="text-xs text-base-content/70">{r.detail}</p>
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
