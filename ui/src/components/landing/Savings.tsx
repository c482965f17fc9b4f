import { Leaf, ListChecks, PoundSterling, Store } from 'lucide-react';

/** The five supported UK grocers. */
export const GROCERS = ['Tesco', "Sainsbury's", 'Asda', 'Morrisons', 'Waitrose'];

const features = [
  {
    icon: ListChecks,
    title: 'Smart Shopping Lists',
    text: 'Turn saved recipes into one grocery list, merged and grouped by aisle.',
  },
  {
    icon: PoundSterling,
    title: 'Cost Comparison',
    text: 'See an estimated cost for each recipe and list before you shop.',
  },
  {
    icon: Leaf,
    title: 'Reduce Food Waste',
    text: 'Buy what your children actually eat, based on what you have logged.',
  },
  {
    icon: Store,
    title: 'Supported Stores',
    text: 'Lists that fit the way you shop at the big UK grocers.',
  },
];

export function Savings() {
  return (
    <section className="bg-base-200" aria-labelledby="savings">
      <div className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="savings" className="text-center text-3xl font-bold">
          Savings &amp; Simplicity
        </h2>
        <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {features.map((f) => (
            <div key={f.title} className="card bg-base-100">
              <div className="card-body">
                <f.icon className="text-secondary" aria-hidden />
                <h3 className="card-title text-lg">{f.title}</h3>
                <p className="text-base-content/80">{f.text}</p>
              </div>
            </div>
          ))}
        </div>
        <div className="mt-10 text-center">
          <p className="font-semibold">Supported stores</p>
          <ul className="mt-3 flex flex-wrap justify-center gap-2" aria-label="Supported stores">
            {GROCERS.map((g) => (
              <li key={g} className="badge badge-lg badge-outline px-4 py-3">
                {g}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
