import { Link } from 'react-router-dom';

import { Prose } from '../components/ui/Prose';
import { routes } from '../routes';

export default function About() {
  return (
    <Prose title="About Highchair">
      <p>
        Highchair helps parents keep track of what their children eat, cook meals the whole family
        will enjoy, and share the day with the other parent – without handing the family's data to
        anyone.
      </p>
      <h2>What it does</h2>
      <ul>
        <li>Keeps a profile for each child, with their dietary needs and allergies.</li>
        <li>Records every meal: what was served, how much was eaten, how it went, and a photo.</li>
        <li>Suggests child-friendly recipes from the ingredients you already have.</li>
        <li>Builds grocery lists, including one list merged from several recipes.</li>
        <li>
          Lets a co-parent see the children's meals and tick off groceries with a link and a PIN.
        </li>
      </ul>
      <h2>Your own server</h2>
      <p>
        Highchair is a single program that a family runs on a Raspberry Pi, a NAS or any small
        computer at home. Everything – accounts, meals, photos and recipes – is stored on that
        machine. It works without the internet, and recipe ideas come from a model running on the
        same machine or from Highchair's built-in recipe generator.
      </p>
      <h2>Who it is for</h2>
      <p>
        Parents at the dinner table with a phone in one hand, co-parents who want to know how the
        day went, and the family member who keeps the home server running.
      </p>
      <p>
        Questions or ideas?{' '}
        <Link to={routes.contact} className="link link-primary">
          Get in touch
        </Link>
        .
      </p>
    </Prose>
  );
}
