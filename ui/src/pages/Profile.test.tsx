import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { amira, calls, mockApi, renderAt, signedIn } from '../test-utils';
import Profile from './Profile';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Profile', () => {
  it('sends the version; on a conflict keeps the typed name and saves it on purpose', async () => {
    const elsewhere = { ...amira, firstName: 'Mira', version: 2 };
    let saves = 0;
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'PATCH /api/profile': () => {
        saves += 1;
        return saves === 1
          ? {
              status: 409,
              body: {
                title: 'Update conflict',
                message: 'Your profile was changed elsewhere.',
                field: 'version',
                current: elsewhere,
              },
            }
          : { status: 200, body: { ...amira, firstName: 'Ami', version: 3 } };
      },
    });
    const user = userEvent.setup();
    renderAt(<Profile />, '/profile');
    const first = await screen.findByLabelText('First name');
    await user.clear(first);
    await user.type(first, 'Ami');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Update conflict')).toBeInTheDocument();
    expect(screen.getByLabelText('First name')).toHaveValue('Ami');
    const saved = screen.getByRole('status');
    expect(within(saved).getByText('First name').nextSibling).toHaveTextContent('Mira');
    expect(within(saved).queryByText('Last name')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    const [stale, deliberate] = calls(fetch, 'PATCH', '/api/profile');
    expect(await stale?.json()).toEqual({ firstName: 'Ami', lastName: 'Khan', version: 1 });
    expect(await deliberate?.json()).toEqual({ firstName: 'Ami', lastName: 'Khan', version: 2 });
    expect(screen.queryByText('Saved elsewhere:')).not.toBeInTheDocument();

    // The next save builds on the version just saved.
    await user.type(screen.getByLabelText('Last name'), '-Ali');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(calls(fetch, 'PATCH', '/api/profile')).toHaveLength(3));
    expect(await calls(fetch, 'PATCH', '/api/profile')[2]?.json()).toEqual({
      firstName: 'Ami',
      lastName: 'Khan-Ali',
      version: 3,
    });
  });
});
