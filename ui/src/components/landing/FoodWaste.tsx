/** The food-waste figures the product claims (spec section 1). */
export const wasteFigures = [
  { figure: '720 lbs', text: 'Up to 720 pounds of food wasted per family every year' },
  { figure: '30%', text: 'of the food bought for children ends up thrown away' },
  { figure: '60 lbs', text: 'About 60 pounds of food saved per month by planning ahead' },
  { figure: '310 kg', text: 'of CO₂ saved per year if a family halves its food waste' },
];

export function FoodWaste() {
  return (
    <section className="bg-neutral text-neutral-content" aria-labelledby="food-waste">
      <div className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="food-waste" className="text-center text-3xl font-bold">
          The Hidden Cost of Food Waste
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-center text-neutral-content/80">
          Children's tastes change by the week. Knowing what they really eat means buying less that
          ends up in the bin.
        </p>
        <dl className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {wasteFigures.map((f) => (
            <div key={f.figure} className="rounded-box bg-neutral-content/10 p-6 text-center">
              <dt className="text-4xl font-extrabold text-accent">{f.figure}</dt>
              <dd className="mt-2 text-neutral-content/90">{f.text}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
