import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { amira, calls, mockApi, renderAt, sentBody, signedIn } from '../test-utils';
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

  it('saves the family’s allergen list from its version; a stale save shows the saved list', async () => {
    const lists = [
      { id: 'uk14', title: 'UK and EU, the 14 allergens of food law', allergens: ['Celery'] },
      { id: 'us9', title: 'US, the 9 major food allergens', allergens: ['Wheat'] },
    ];
    let settings = { version: 0, allergenList: 'uk14', allergenLists: lists };
    let saves = 0;
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/family/settings': () => ({ status: 200, body: settings }),
      'PUT /api/family/settings': () => {
        saves += 1;
        if (saves === 1) {
          settings = { ...settings, version: 1, allergenList: 'us9' };
          return { status: 200, body: settings };
        }
        // The other parent saved the US list again meanwhile (version 2).
        settings = { ...settings, version: 2, allergenList: 'us9' };
        return {
          status: 409,
          body: {
            title: 'Update conflict',
            message: 'This family setting was changed elsewhere while you were editing.',
            field: 'version',
            current: settings,
          },
        };
      },
    });
    const user = userEvent.setup();
    renderAt(<Profile />, '/profile');
    const us = await screen.findByRole('radio', { name: /US, the 9 major food allergens/ });
    const save = screen.getByRole('button', { name: 'Save Settings' });
    expect(save).toBeDisabled();
    await user.click(us);
    await user.click(save);
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(await sentBody(fetch, 'PUT', '/api/family/settings')).toEqual({
      version: 0,
      allergenList: 'us9',
    });

    await waitFor(() => expect(screen.getByRole('radio', { name: /^US,/ })).toBeChecked());
    await user.click(screen.getByRole('radio', { name: /UK and EU/ }));
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Update conflict')).toBeInTheDocument();
    expect(await calls(fetch, 'PUT', '/api/family/settings')[1]?.json()).toEqual({
      version: 1,
      allergenList: 'uk14',
    });
    // The list as saved now is shown (not the one picked here), with nothing left to save.
    await waitFor(() => expect(screen.getByRole('radio', { name: /^US,/ })).toBeChecked());
    expect(screen.getByRole('button', { name: 'Save Settings' })).toBeDisabled();
  });
});
