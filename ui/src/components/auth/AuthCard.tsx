import type { ReactNode } from 'react';

/** The centred card the sign-in, sign-up and guest screens share. */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="mx-auto flex max-w-md flex-col px-4 py-10 sm:py-16">
      <div className="card border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body gap-4">
          <div>
            <h1 className="text-2xl font-bold">{title}</h1>
            {subtitle ? <p className="mt-1 text-base-content/70">{subtitle}</p> : null}
          </div>
          {children}
        </div>
      </div>
    </section>
  );
}
