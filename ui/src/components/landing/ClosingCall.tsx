import { Link } from 'react-router-dom';

import { routes } from '../../routes';

export function ClosingCall() {
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 text-center" aria-labelledby="get-started">
      <h2 id="get-started" className="text-3xl font-bold">
        Ready to make mealtimes easier?
      </h2>
      <p className="mt-3 text-base-content/80">
        Set up your family in a couple of minutes. Your data stays on your own server.
      </p>
      <Link to={routes.signup} className="btn btn-primary btn-lg mt-8">
        Get Started Free
      </Link>
      <p className="mt-3 text-sm text-base-content/70">No credit card required</p>
    </section>
  );
}
