import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { useRevalidate } from '../../hooks/revalidate';
import type { Child } from '../../hooks/useChildren';
import Children from '../../pages/Children';
import { calls, mockApi, renderAt, signedIn } from '../../test-utils';

afterEach(() => {
  vi.unstubAllGlobals();
});

const emma: Child = {
  id: 'c1',
  name: 'Emma',
  age: 4,
  dietaryRestrictions: ['Vegetarian'],
  allergies: ['Peanuts', 'Milk'],
  createdAt: '',
  updatedAt: '',
  version: 1,
};
// What the other parent saved meanwhile.
const elsewhere: Child = { ...emma, name: 'Emma-Rose', allergies: ['Peanuts'], version: 2 };
const conflict = {
  status: 409,
  body: {
    title: 'Update conflict',
    message: 'This child was changed elsewhere. Check the saved details and save again.',
    field: 'version',
    current: elsewhere,
  },
};

/** Revalidates the children as the change feed does when the other parent saves. */
function Feed() {
  const revalidate = useRevalidate();
  return (
    <button type="button" onClick={() => void revalidate(['children'])}>
      change arrives
    </button>
  );
}

async function editEmma(user: ReturnType<typeof userEvent.setup>) {
  const card = (await screen.findByRole('heading', { name: 'Emma' })).closest('li') as HTMLElement;
  await user.click(within(card).getByRole('button', { name: 'Edit' }));
  return card;
}

describe('Child form', () => {
  it('sends the version it was opened with', async () => {
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/children': { status: 200, body: [emma] },
      'PUT /api/children/c1': { status: 200, body: { ...emma, age: 5, version: 2 } },
    });
    const user = userEvent.setup();
    renderAt(<Children />, '/children');
    const card = await editEmma(user);
    await user.clear(within(card).getByLabelText('Age'));
    await user.type(within(card).getByLabelText('Age'), '5');
    await user.click(within(card).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Child updated')).toBeInTheDocument();
    const [put] = calls(fetch, 'PUT', '/api/children/c1');
    expect(await put?.json()).toEqual({
      name: 'Emma',
      age: 5,
      dietaryRestrictions: ['Vegetarian'],
      allergies: ['Peanuts', 'Milk'],
      birthMonth: '',
      version: 1,
    });
  });

  it('adds an allergy typed but not added as a chip when saving, never dropping it', async () => {
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/children': { status: 200, body: [emma] },
      'PUT /api/children/c1': { status: 200, body: { ...emma, version: 2 } },
    });
    const user = userEvent.setup();
    renderAt(<Children />, '/children');
    const card = await editEmma(user);
    await user.type(within(card).getByLabelText('Allergies'), 'Sesame');
    await user.type(within(card).getByLabelText('Dietary Restrictions'), ' Halal ');
    await user.click(within(card).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Child updated')).toBeInTheDocument();
    const [put] = calls(fetch, 'PUT', '/api/children/c1');
    expect(await put?.json()).toMatchObject({
      dietaryRestrictions: ['Vegetarian', 'Halal'],
      allergies: ['Peanuts', 'Milk', 'Sesame'],
    });
  });

  it('on a conflict keeps what was typed, shows what is saved, and overwrites on purpose', async () => {
    let saves = 0;
    let served: Child[] = [emma];
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/children': () => ({ status: 200, body: served }),
      'PUT /api/children/c1': () => {
        saves += 1;
        if (saves === 1) {
          served = [elsewhere];
          return conflict;
        }
        served = [{ ...elsewhere, name: 'Emma Jane', allergies: ['Peanuts', 'Milk'], version: 3 }];
        return { status: 200, body: served[0] };
      },
    });
    const user = userEvent.setup();
    renderAt(<Children />, '/children');
    const card = await editEmma(user);
    const name = within(card).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Emma Jane');
    await user.click(within(card).getByRole('button', { name: 'Save Changes' }));

    // The server's toast; the typed name stays; what is saved now is shown beside the form.
    expect(await screen.findByText('Update conflict')).toBeInTheDocument();
    expect(
      screen.getByText('This child was changed elsewhere. Check the saved details and save again.'),
    ).toBeInTheDocument();
    expect(within(card).getByLabelText('Name')).toHaveValue('Emma Jane');
    const saved = within(card).getByRole('status');
    expect(saved).toHaveTextContent('Saved elsewhere:');
    expect(within(saved).getByText('Name').nextSibling).toHaveTextContent('Emma-Rose');
    expect(within(saved).getByText('Allergies').nextSibling).toHaveTextContent(/^Peanuts$/);
    expect(within(saved).queryByText('Age')).not.toBeInTheDocument();
    expect(within(saved).queryByText('Dietary Restrictions')).not.toBeInTheDocument();
    // The lists are revalidated; the open form keeps the typed values.
    await waitFor(() => expect(calls(fetch, 'GET', '/api/children').length).toBeGreaterThan(1));
    expect(within(card).getByLabelText('Name')).toHaveValue('Emma Jane');
    expect(within(card).getByRole('button', { name: 'Save Changes' })).toBeEnabled();

    // Saving again sends the version saved elsewhere, so it overwrites deliberately.
    await user.click(within(card).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Child updated')).toBeInTheDocument();
    const puts = calls(fetch, 'PUT', '/api/children/c1');
    expect(puts).toHaveLength(2);
    expect(await puts[0]?.json()).toMatchObject({ name: 'Emma Jane', version: 1 });
    expect(await puts[1]?.json()).toMatchObject({
      name: 'Emma Jane',
      allergies: ['Peanuts', 'Milk'],
      version: 2,
    });
    expect(await screen.findByRole('heading', { name: 'Emma Jane' })).toBeInTheDocument();
  });

  it('follows a change made elsewhere while it is untouched', async () => {
    let served: Child[] = [emma];
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/children': () => ({ status: 200, body: served }),
      'PUT /api/children/c1': { status: 200, body: elsewhere },
    });
    const user = userEvent.setup();
    renderAt(
      <>
        <Children />
        <Feed />
      </>,
      '/children',
    );
    const card = await editEmma(user);
    served = [elsewhere];
    await user.click(screen.getByRole('button', { name: 'change arrives' }));
    await waitFor(() => expect(within(card).getByLabelText('Name')).toHaveValue('Emma-Rose'));
    await user.click(within(card).getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Child updated');
    expect(await calls(fetch, 'PUT', '/api/children/c1')[0]?.json()).toMatchObject({ version: 2 });
  });

  it('keeps what was typed when a change arrives meanwhile', async () => {
    let served: Child[] = [emma];
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/children': () => ({ status: 200, body: served }),
    });
    const user = userEvent.setup();
    renderAt(
      <>
        <Children />
        <Feed />
      </>,
      '/children',
    );
    const card = await editEmma(user);
    await user.type(within(card).getByLabelText('Name'), ' Jane');
    const loads = calls(fetch, 'GET', '/api/children').length;
    served = [elsewhere];
    await user.click(screen.getByRole('button', { name: 'change arrives' }));
    await waitFor(() => expect(calls(fetch, 'GET', '/api/children')).toHaveLength(loads + 1));
    await new Promise((r) => setTimeout(r, 20));
    expect(within(card).getByLabelText('Name')).toHaveValue('Emma Jane');
    expect(
      within(within(card).getByRole('list', { name: 'Added allergies' })).getAllByRole('listitem'),
    ).toHaveLength(2);
  });
});
