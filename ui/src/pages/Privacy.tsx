import { Link } from 'react-router-dom';

import { POLICY_DATE, Prose } from '../components/ui/Prose';
import { routes } from '../routes';

export default function Privacy() {
  return (
    <Prose title="Privacy Policy" updated={POLICY_DATE}>
      <p>
        This Highchair server is run by a person you know – usually someone in your family – on
        their own hardware. This policy explains what it stores and where that information goes.
      </p>
      <h2>Your data stays on this server</h2>
      <p>
        Everything you enter is stored only on the server that runs this Highchair, in its own data
        directory. Nothing is sent to us, to advertisers or to any other company. This site loads no
        fonts, scripts or images from elsewhere and contains no analytics or tracking.
      </p>
      <h2>What is stored</h2>
      <ul>
        <li>
          Your account: first and last name, e-mail address, role and a profile picture if you add
          one.
        </li>
        <li>Your children's profiles: name, age, dietary restrictions and allergies.</li>
        <li>Meal records: foods, portion, mood, feedback, notes and photos.</li>
        <li>Saved recipes and grocery lists.</li>
        <li>Co-parents you invite: their name and e-mail address.</li>
        <li>Messages sent with the contact form.</li>
      </ul>
      <h2>Photos</h2>
      <p>
        When you upload a photo, Highchair removes its hidden metadata – including the GPS position
        a phone camera records – before storing it. Photos are only shown to you and to co-parents
        you have invited.
      </p>
      <h2>Passwords and security</h2>
      <p>
        Passwords and PINs are stored only as salted hashes. Sign-in sessions use a cookie that
        scripts cannot read. Repeated failed sign-ins are slowed down.
      </p>
      <h2>Recipe suggestions</h2>
      <p>
        Recipes are generated on this server, by a model running locally or by the built-in
        generator. The ingredients you choose are not sent to any outside service.
      </p>
      <h2>Keeping and deleting data</h2>
      <p>
        Your data is kept until you or the server's admin delete it. Deleting an account removes all
        of that family's records and photos. Guest accounts that are not used for 30 days are
        removed automatically with all their data.
      </p>
      <h2>Changes to this policy</h2>
      <p>We will give at least 30 days notice before this policy changes.</p>
      <h2>Questions</h2>
      <p>
        Ask the person who runs this server, or use the{' '}
        <Link to={routes.contact} className="link link-primary">
          contact form
        </Link>
        .
      </p>
    </Prose>
  );
}
