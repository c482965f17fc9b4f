import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import CoParents from '../../pages/CoParents';
import { RequireAuth } from '../../router/guards';
import { amira, calls, mockApi, renderAt, sentBody, signedIn } from '../../test-utils';
import { Header } from '../shell/Header';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const LINK = 'http://highchair.local/co-parent/accept/4b0f3c1e-8d1a-4c1e-9a3b-2f6d7e8a9b0c';

const jamie = {
  id: 'cp1',
  name: 'Jamie Rivera',
  email: 'jamie@example.org',
  state: 'pending',
  accepted: false,
  pinSet: true,
  expiresAt: inDays(7),
  invitationSent: true,
  createdAt: new Date().toISOString(),
  link: LINK,
};

const guest = {
  status: 200,
  body: {
    user: { ...amira, firstName: 'Guest_Kai', role: 'guest', isGuest: true },
    expiresAt: '2030-01-01T00:00:00Z',
  },
};

/** Signed in, the header's Co-Parent Access dialog open on its Invite tab. */
async function openDialog() {
  const user = userEvent.setup();
  renderAt(<Header />);
  await user.click(await screen.findByRole('button', { name: 'Co-Parents' }));
  return { user, dialog: screen.getByRole('dialog', { name: 'Co-Parent Access' }) };
}

describe('the header', () => {
  it('offers Co-Parents to a parent, on the desktop header and in the side menu', async () => {
    mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/co-parents': { status: 200, body: [] },
    });
    const user = userEvent.setup();
    renderAt(<Header />);
    expect(await screen.findByRole('button', { name: 'Co-Parents' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = screen.getByRole('dialog', { name: 'Menu' });
    await user.click(within(menu).getByRole('button', { name: 'Co-Parents' }));
    expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();
    const dialog = screen.getByRole('dialog', { name: 'Co-Parent Access' });
    expect(within(dialog).getByRole('tab', { name: 'Invite' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(within(dialog).getByRole('link', { name: 'Manage all co-parents' })).toHaveAttribute(
      'href',
      '/co-parent',
    );
  });

  it('offers it to no guest and no visitor', async () => {
    mockApi({ 'GET /api/auth/session': guest });
    renderAt(<Header />);
    await screen.findByText('Welcome, Kai! 👋');
    expect(screen.queryByRole('button', { name: 'Co-Parents' })).not.toBeInTheDocument();
  });
});

describe('the Invite tab', () => {
  it("checks the fields with the spec's texts before sending anything", async () => {
    const fetch = mockApi({ 'GET /api/auth/session': signedIn });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    expect(await screen.findByText('Missing information')).toBeInTheDocument();
    expect(screen.getByText('Please provide both name and email')).toBeInTheDocument();
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Email is required')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Name'), 'Jamie 2');
    await user.type(within(dialog).getByLabelText('Email'), 'jamie@');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    expect(await screen.findByText('Invalid name')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription(
      'Please enter a valid name (letters, spaces, hyphens, and apostrophes only)',
    );
    expect(within(dialog).getByLabelText('Email')).toHaveAccessibleDescription(
      'Please enter a valid email address',
    );
    expect(calls(fetch, 'POST', '/api/co-parents')).toHaveLength(0);
  });

  it("shows the server's texts on a refusal", async () => {
    mockApi({
      'GET /api/auth/session': signedIn,
      'POST /api/co-parents': {
        status: 409,
        body: {
          title: 'Error inviting co-parent',
          message: 'This email address is already invited as a co-parent.',
          field: null,
        },
      },
    });
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('Name'), 'Jamie');
    await user.type(within(dialog).getByLabelText('Email'), 'jamie@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    expect(await screen.findByText('Error inviting co-parent')).toBeInTheDocument();
    expect(
      screen.getByText('This email address is already invited as a co-parent.'),
    ).toBeInTheDocument();
  });

  it('says so when the server cannot be reached', async () => {
    mockApi({ 'GET /api/auth/session': signedIn });
    const { user, dialog } = await openDialog();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await user.type(within(dialog).getByLabelText('Name'), 'Jamie');
    await user.type(within(dialog).getByLabelText('Email'), 'jamie@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    expect(await screen.findByText('Error inviting co-parent')).toBeInTheDocument();
    expect(screen.getByText('Unable to send invitation')).toBeInTheDocument();
  });

  it('invites, then shows the link and the PIN this once', async () => {
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/co-parents': { status: 200, body: [jamie] },
      'POST /api/co-parents': {
        status: 201,
        body: { coParent: jamie, link: LINK, pin: '482913' },
      },
    });
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('Name'), ' Jamie Rivera ');
    await user.type(within(dialog).getByLabelText('Email'), 'jamie@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    expect(await screen.findByText('Co-parent invited')).toBeInTheDocument();
    expect(await sentBody(fetch, 'POST', '/api/co-parents')).toEqual({
      name: 'Jamie Rivera',
      email: 'jamie@example.org',
    });
    const shown = within(dialog).getByRole('region', {
      name: 'Jamie Rivera has been invited as a co-parent',
    });
    expect(within(shown).getByLabelText('Co-parent link')).toHaveValue(LINK);
    expect(within(shown).getByText('482913')).toBeInTheDocument();
    expect(shown).toHaveTextContent(/securely/);

    // Done goes to Manage; the PIN is not in the card.
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    const card = await within(dialog).findByRole('article', { name: 'Jamie Rivera' });
    expect(card).not.toHaveTextContent('482913');
    // Invite Another brings back an empty form.
    await user.click(within(dialog).getByRole('tab', { name: 'Invite' }));
    await user.click(within(dialog).getByRole('button', { name: 'Invite Another' }));
    expect(within(dialog).getByLabelText('Name')).toHaveValue('');
  });

  it("reads 'Sending...' while the invite is on its way", async () => {
    mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/co-parents': { status: 200, body: [jamie] },
      'POST /api/co-parents': {
        status: 201,
        body: { coParent: jamie, link: LINK, pin: '482913' },
      },
    });
    const { user, dialog } = await openDialog();
    const answer = globalThis.fetch;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        if (request.method === 'POST') await held;
        return answer(request);
      }),
    );
    await user.type(within(dialog).getByLabelText('Name'), 'Jamie Rivera');
    await user.type(within(dialog).getByLabelText('Email'), 'jamie@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    expect(await within(dialog).findByRole('button', { name: 'Sending...' })).toBeDisabled();
    release();
    expect(await screen.findByText('Co-parent invited')).toBeInTheDocument();
  });

  it('refuses an answer without a six-digit PIN', async () => {
    mockApi({
      'GET /api/auth/session': signedIn,
      'POST /api/co-parents': { status: 201, body: { coParent: jamie, link: LINK, pin: '' } },
    });
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('Name'), 'Jamie');
    await user.type(within(dialog).getByLabelText('Email'), 'jamie@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    expect(await screen.findByText('Invalid response from server')).toBeInTheDocument();
  });
});

describe('the Manage tab', () => {
  it('shows the empty state, whose Invite Now goes to the Invite tab', async () => {
    mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/co-parents': { status: 200, body: [] },
    });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('tab', { name: 'Manage' }));
    expect(await within(dialog).findByText('No co-parents have been invited yet')).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Invite Now' }));
    expect(within(dialog).getByRole('tab', { name: 'Invite' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  it('shows each co-parent with its badges and buttons', async () => {
    mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/co-parents': {
        status: 200,
        body: [
          jamie,
          {
            ...jamie,
            id: 'cp2',
            name: 'Sam Okafor',
            state: 'active',
            accepted: true,
            expiresAt: inDays(1),
          },
          {
            ...jamie,
            id: 'cp3',
            name: 'Lee Park',
            state: 'expired',
            accepted: true,
            expiresAt: inDays(-2),
          },
          { ...jamie, id: 'cp4', name: 'Ana Silva', state: 'locked', pinSet: false },
        ],
      },
    });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('tab', { name: 'Manage' }));
    const badges = (name: string) =>
      within(within(dialog).getByRole('list', { name: `Status of ${name}` }))
        .getAllByRole('listitem')
        .map((b) => b.textContent);
    const card = (name: string) => within(dialog).getByRole('article', { name });
    await within(dialog).findByRole('article', { name: 'Jamie Rivera' });

    expect(badges('Jamie Rivera')).toEqual([
      expect.stringMatching(/^Expires: \d{1,2} [A-Z][a-z]{2} \d{4}$/),
      'Pending',
      'PIN Set',
    ]);
    expect(within(card('Jamie Rivera')).queryByRole('button', { name: 'Extend link' })).toBeNull();
    expect(within(card('Jamie Rivera')).getByRole('button', { name: 'Reset PIN' })).toBeVisible();

    expect(badges('Sam Okafor')).toEqual([
      expect.stringMatching(/^Expires: /),
      'Active',
      'PIN Set',
    ]);
    expect(within(card('Sam Okafor')).getByRole('button', { name: 'Extend link' })).toBeVisible();

    // Expired, and whether they had accepted before (spec: the three badges).
    expect(badges('Lee Park')).toEqual(['Expired', 'Active', 'PIN Set']);
    expect(within(card('Lee Park')).getByText('Expired')).toHaveClass('badge-error');
    expect(within(card('Lee Park')).getByRole('button', { name: 'Extend link' })).toBeVisible();

    expect(badges('Ana Silva')).toEqual([expect.stringMatching(/^Expires: /), 'Locked', 'No PIN']);
    expect(card('Ana Silva')).toHaveTextContent('Locked after too many wrong PINs');
    expect(within(card('Ana Silva')).getByRole('button', { name: 'Generate PIN' })).toBeVisible();
    for (const label of ['Copy Link', 'Remove']) {
      expect(within(card('Ana Silva')).getByRole('button', { name: label })).toBeVisible();
    }
  });

  it('asks before a reset (the co-parent is signed out), then shows the new PIN until dismissed', async () => {
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/co-parents': { status: 200, body: [jamie] },
      'POST /api/co-parents/cp1/pin': { status: 200, body: { pin: '730461', coParent: jamie } },
    });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('tab', { name: 'Manage' }));
    const card = await within(dialog).findByRole('article', { name: 'Jamie Rivera' });
    await user.click(within(card).getByRole('button', { name: 'Reset PIN' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reset PIN?' });
    expect(confirm).toHaveTextContent('Jamie Rivera will be signed out on every device');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls(fetch, 'POST', '/api/co-parents/cp1/pin')).toHaveLength(0);
    await user.click(within(card).getByRole('button', { name: 'Reset PIN' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Reset PIN?' })).getByRole('button', {
        name: 'Reset PIN',
      }),
    );
    expect(await screen.findByText('PIN generated')).toBeInTheDocument();
    expect(screen.getByText(/New PIN for Jamie Rivera: 730461\. Share it securely/)).toBeVisible();
    expect(within(card).getByText('730461')).toBeVisible();
    expect(calls(fetch, 'POST', '/api/co-parents/cp1/pin')).toHaveLength(1);
    await user.click(within(card).getByRole('button', { name: 'Dismiss new PIN' }));
    expect(within(card).queryByText('730461')).not.toBeInTheDocument();
  });

  it("says 'Error generating PIN' with the server's message", async () => {
    mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/co-parents': { status: 200, body: [jamie] },
      'POST /api/co-parents/cp1/pin': {
        status: 404,
        body: { title: 'Not found', message: 'It may have been removed.', field: null },
      },
    });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('tab', { name: 'Manage' }));
    const card = await within(dialog).findByRole('article', { name: 'Jamie Rivera' });
    await user.click(within(card).getByRole('button', { name: 'Reset PIN' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Reset PIN?' })).getByRole('button', {
        name: 'Reset PIN',
      }),
    );
    expect(await screen.findByText('Error generating PIN')).toBeInTheDocument();
    expect(screen.getByText('It may have been removed.')).toBeInTheDocument();
  });

  it('removes after the confirmation, and the Co-Parent Access dialog stays open', async () => {
    let list = [jamie];
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/co-parents': () => ({ status: 200, body: list }),
      'DELETE /api/co-parents/cp1': () => {
        list = [];
        return { status: 204, body: null };
      },
    });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('tab', { name: 'Manage' }));
    const card = await within(dialog).findByRole('article', { name: 'Jamie Rivera' });
    await user.click(within(card).getByRole('button', { name: 'Remove' }));
    const confirm = screen.getByRole('dialog', { name: 'Remove co-parent?' });
    expect(confirm).toHaveTextContent('Are you sure you want to remove this co-parent?');
    expect(confirm).not.toHaveTextContent('They will lose all access.');
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Co-parent removed')).toBeInTheDocument();
    expect(calls(fetch, 'DELETE', '/api/co-parents/cp1')).toHaveLength(1);
    expect(await within(dialog).findByText('No co-parents have been invited yet')).toBeVisible();
    expect(screen.getByRole('dialog', { name: 'Co-Parent Access' })).toBeInTheDocument();
  });

  it('extends an expiring link by seven days', async () => {
    const sam = { ...jamie, id: 'cp2', name: 'Sam Okafor', expiresAt: inDays(1) };
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/co-parents': { status: 200, body: [sam] },
      'POST /api/co-parents/cp2/extend': {
        status: 200,
        body: { ...sam, expiresAt: '2030-05-20T12:00:00Z' },
      },
    });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('tab', { name: 'Manage' }));
    const card = await within(dialog).findByRole('article', { name: 'Sam Okafor' });
    await user.click(within(card).getByRole('button', { name: 'Extend link' }));
    expect(await screen.findByText('Link extended')).toBeInTheDocument();
    expect(screen.getByText("Sam Okafor's link now works until 20 May 2030.")).toBeVisible();
    expect(calls(fetch, 'POST', '/api/co-parents/cp2/extend')).toHaveLength(1);
  });

  it("says 'Error deleting co-parent' with the server's message", async () => {
    mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/co-parents': { status: 200, body: [jamie] },
      'DELETE /api/co-parents/cp1': {
        status: 404,
        body: { title: 'Not found', message: 'It may have been removed.', field: null },
      },
    });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('tab', { name: 'Manage' }));
    const card = await within(dialog).findByRole('article', { name: 'Jamie Rivera' });
    await user.click(within(card).getByRole('button', { name: 'Remove' }));
    const confirm = screen.getByRole('dialog', { name: 'Remove co-parent?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Error deleting co-parent')).toBeInTheDocument();
    expect(screen.getByText('It may have been removed.')).toBeInTheDocument();
  });

  it("shows 'Error fetching co-parents' when the list cannot be loaded", async () => {
    mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/co-parents': {
        status: 500,
        body: { title: 'Server error', message: 'Something failed.', field: null },
      },
    });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('tab', { name: 'Manage' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Error fetching co-parents');
    expect(alert).toHaveTextContent('Unable to load co-parent information');
  });
});

describe('Copy Link', () => {
  it('copies through the clipboard API where there is one', async () => {
    mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/co-parents': { status: 200, body: [jamie] },
    });
    const { user, dialog } = await openDialog();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    try {
      await user.click(within(dialog).getByRole('tab', { name: 'Manage' }));
      const card = await within(dialog).findByRole('article', { name: 'Jamie Rivera' });
      await user.click(within(card).getByRole('button', { name: 'Copy Link' }));
      expect(await screen.findByText('Link copied')).toBeInTheDocument();
      expect(writeText).toHaveBeenCalledWith(LINK);
      expect(within(card).queryByLabelText('Link for Jamie Rivera')).not.toBeInTheDocument();
    } finally {
      Reflect.deleteProperty(navigator, 'clipboard');
    }
  });

  it('shows the link selected where there is none (plain http), and says so', async () => {
    mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/co-parents': { status: 200, body: [jamie] },
    });
    const { user, dialog } = await openDialog();
    // user-event puts a clipboard on the navigator; a page over plain http has none.
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    try {
      await user.click(within(dialog).getByRole('tab', { name: 'Manage' }));
      const card = await within(dialog).findByRole('article', { name: 'Jamie Rivera' });
      await user.click(within(card).getByRole('button', { name: 'Copy Link' }));
      const field = within(card).getByLabelText<HTMLInputElement>('Link for Jamie Rivera');
      expect(field).toHaveValue(LINK);
      expect(field).toHaveFocus();
      expect([field.selectionStart, field.selectionEnd]).toEqual([0, LINK.length]);
      // jsdom has no copy command either.
      expect(await screen.findByText('Copy the selected link')).toBeInTheDocument();
    } finally {
      Reflect.deleteProperty(navigator, 'clipboard');
    }
  });
});

describe('/co-parent', () => {
  it('has the invite form, the list and the info box with the 6-digit wording', async () => {
    mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/co-parents': { status: 200, body: [jamie] },
    });
    const user = userEvent.setup();
    renderAt(<CoParents />, '/co-parent');
    expect(screen.getByRole('heading', { level: 1, name: 'Co-Parent Management' })).toBeVisible();
    const about = screen.getByRole('complementary', { name: 'How co-parent access works' });
    expect(about).toHaveTextContent("Co-parents don't need a full account.");
    expect(about).toHaveTextContent('They create a 6-digit PIN to open it.');
    expect(about).toHaveTextContent('They can view meal history and shared grocery lists');
    expect(about).toHaveTextContent('They cannot edit child profiles or account settings.');
    expect(about).not.toHaveTextContent('4-digit');
    expect(screen.getByRole('button', { name: 'Send Invite' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();

    const card = await screen.findByRole('article', { name: 'Jamie Rivera' });
    await user.click(within(card).getByRole('button', { name: 'Remove' }));
    expect(screen.getByRole('dialog', { name: 'Remove co-parent?' })).toHaveTextContent(
      'Are you sure you want to remove this co-parent? They will lose all access.',
    );
  });

  it('tells a guest that guests cannot invite co-parents', async () => {
    const fetch = mockApi({ 'GET /api/auth/session': guest });
    renderAt(
      <RequireAuth>
        <CoParents />
      </RequireAuth>,
      '/co-parent',
    );
    await waitFor(() =>
      expect(screen.getByText(/Guests cannot invite co-parents/)).toBeInTheDocument(),
    );
    expect(screen.queryByRole('button', { name: 'Send Invite' })).not.toBeInTheDocument();
    expect(calls(fetch, 'GET', '/api/co-parents')).toHaveLength(0);
  });
});
