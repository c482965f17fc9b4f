import { Link } from 'react-router-dom';

import { POLICY_DATE, Prose } from '../components/ui/Prose';
import { routes } from '../routes';

export default function Terms() {
  return (
    <Prose title="Terms of Service" updated={POLICY_DATE}>
      <p>
        These terms apply to your use of this Highchair server. By creating an account or using
        Highchair as a guest, you agree to them.
      </p>
      <h2>The service</h2>
      <p>
        Highchair is software for planning and recording family meals. This server is operated by
        the person who installed it, who decides who may create accounts and who looks after
        backups.
      </p>
      <h2>Your account</h2>
      <ul>
        <li>Keep your password to yourself and sign out on shared devices.</li>
        <li>Only share co-parent links and PINs with the person they are meant for.</li>
        <li>You are responsible for the information you enter about your children.</li>
      </ul>
      <h2>Recipes and allergies</h2>
      <p>
        Generated recipes are suggestions. Always check every ingredient against your child's
        allergies and dietary needs before cooking, and follow safe food preparation for young
        children.
      </p>
      <h2>Acceptable use</h2>
      <p>
        Do not use Highchair to store anything unlawful, to access other families' information, or
        to disrupt the server for others.
      </p>
      <h2>No warranty</h2>
      <p>
        Highchair is provided as it is. Keep backups of information that matters to you; the
        server's admin can make and restore them.
      </p>
      <h2>Changes to these terms</h2>
      <p>We will give at least 30 days notice before these terms change.</p>
      <h2>Contact</h2>
      <p>
        Questions about these terms? Use the{' '}
        <Link to={routes.contact} className="link link-primary">
          contact form
        </Link>
        .
      </p>
    </Prose>
  );
}
