import { Baby, ClipboardCheck, UtensilsCrossed } from 'lucide-react';

const steps = [
  {
    icon: Baby,
    title: 'Add Your Kids',
    text: 'Create a profile for each child with their age, dietary needs and allergies.',
  },
  {
    icon: UtensilsCrossed,
    title: 'Choose Meals',
    text: 'Pick the ingredients you have and get child-friendly recipes to cook tonight.',
  },
  {
    icon: ClipboardCheck,
    title: 'Track Food',
    text: 'Log each meal with a photo, the portion and their mood, and see what they love.',
  },
];

export function HowItWorks() {
  return (
    <section className="mx-auto max-w-6xl px-4 py-16" aria-labelledby="how-it-works">
      <h2 id="how-it-works" className="text-center text-3xl font-bold">
        How It Works
      </h2>
      <ol className="mt-10 grid gap-6 md:grid-cols-3">
        {steps.map((s, i) => (
          <li key={s.title} className="card bg-base-200">
            <div className="card-body items-center text-center">
              <span className="flex h-14 w-14 items-center justify-center rounded-full bg-primary text-primary-content">
                <s.icon aria-hidden />
              </span>
              <p className="text-sm font-semibold text-primary">Step {i + 1}</p>
              <h3 className="card-title">{s.title}</h3>
              <p className="text-base-content/80">{s.text}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
