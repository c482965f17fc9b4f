import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { RequireAuth } from '../router/guards';
import { amira, calls, mockApi, renderRoutes, sentBody, signedIn, site } from '../test-utils';
import Guest from './Guest';
import Login from './Login';
import ResetPassword from './ResetPassword';
import Signup from './Signup';

afterEach(() => {
  vi.unstubAllGlobals();
});

const dashboard = <p>dashboard page</p>;

describe('Login', () => {
  it('asks for both fields before sending anything', async () => {
    const fetch = mockApi();
    const user = userEvent.setup();
    renderRoutes({ '/login': <Login /> }, '/login');
    await user.click(await screen.findByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Missing information')).toBeInTheDocument();
    expect(screen.getByText('Please enter both email and password')).toBeInTheDocument();
    expect(calls(fetch, 'POST', '/api/auth/login')).toHaveLength(0);
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it("shows the server's failure and resets the button", async () => {
    mockApi({
      'POST /api/auth/login': {
        status: 401,
        body: { title: 'Sign in failed', message: 'Invalid email or password', field: null },
      },
    });
    const user = userEvent.setup();
    renderRoutes({ '/login': <Login /> }, '/login');
    await user.type(screen.getByLabelText('Email'), 'amira@example.org');
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Sign in failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid email or password')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log In' })).toBeEnabled();
  });

  it('signs in, welcomes back and goes to the dashboard', async () => {
    let release: () => void = () => {};
    const answered = new Promise<void>((r) => (release = r));
    const fetch = mockApi({ 'POST /api/auth/login': signedIn });
    const original = fetch.getMockImplementation();
    if (!original) throw new Error('mockApi installs an implementation');
    fetch.mockImplementation(async (request: Request) => {
      if (request.method === 'POST') await answered;
      return original(request);
    });
    const user = userEvent.setup();
    renderRoutes({ '/login': <Login />, '/dashboard': dashboard }, '/login');
    await user.type(screen.getByLabelText('Email'), ' amira@example.org ');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('button', { name: 'Signing In...' })).toBeDisabled();
    release();
    expect(await screen.findByText('dashboard page')).toBeInTheDocument();
    expect(screen.getByText('Welcome back!')).toBeInTheDocument();
    expect(screen.getByText('You have successfully signed in')).toBeInTheDocument();
    expect(await sentBody(fetch, 'POST', '/api/auth/login')).toEqual({
      email: 'amira@example.org',
      password: 'correct horse',
    });
  });
});

describe('protected pages', () => {
  it('redirect to /login and come back after signing in', async () => {
    let session = false;
    mockApi({
      'GET /api/auth/session': () =>
        session ? signedIn : { status: 401, body: { title: 'x', message: 'x', field: null } },
      'POST /api/auth/login': () => {
        session = true;
        return signedIn;
      },
    });
    const user = userEvent.setup();
    renderRoutes(
      {
        '/login': <Login />,
        '/profile': (
          <RequireAuth>
            <p>profile page</p>
          </RequireAuth>
        ),
      },
      '/profile',
    );
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    await user.type(screen.getByLabelText('Email'), 'amira@example.org');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('profile page')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/profile');
  });

  it('show a spinner while the session loads', async () => {
    mockApi({ 'GET /api/auth/session': signedIn });
    renderRoutes(
      {
        '/profile': (
          <RequireAuth>
            <p>profile page</p>
          </RequireAuth>
        ),
      },
      '/profile',
    );
    expect(screen.getByRole('status')).toHaveTextContent('Checking your session');
    expect(await screen.findByText('profile page')).toBeInTheDocument();
  });
});

describe('Signup', () => {
  it('checks the form with the spec texts', async () => {
    const fetch = mockApi();
    const user = userEvent.setup();
    renderRoutes({ '/signup': <Signup /> }, '/signup');
    // Empty: every required field is marked, not only the first.
    await user.click(await screen.findByRole('button', { name: 'Create Account' }));
    for (const label of ['First name', 'Last name', 'Email', 'Password']) {
      expect(await screen.findByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
    }
    await user.type(await screen.findByLabelText('First name'), 'Amira');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    // In the toast, and at the field it is about (linked for screen readers).
    expect(await screen.findAllByText('Please fill in all required fields')).not.toHaveLength(0);
    expect(screen.getByLabelText('Last name')).toHaveAccessibleDescription(
      'Please fill in all required fields',
    );
    await user.type(screen.getByLabelText('Last name'), 'Khan');
    await user.type(screen.getByLabelText('Email'), 'amira@example.org');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findAllByText('Password must be at least 8 characters')).not.toHaveLength(
      0,
    );
    await user.type(screen.getByLabelText('Password'), ' enough');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(
      await screen.findByText('You must agree to the Terms of Service and Privacy Policy'),
    ).toBeInTheDocument();
    expect(calls(fetch, 'POST', '/api/auth/signup')).toHaveLength(0);
    expect(screen.getByLabelText('I am a')).toHaveValue('mom');
    expect(screen.getByText('At least 8 characters')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      '/terms',
    );
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/privacy',
    );
  });

  it('creates the account and goes to the dashboard', async () => {
    const fetch = mockApi({
      'POST /api/auth/signup': {
        status: 201,
        body: { user: { ...amira, role: 'dad' }, expiresAt: '2030-01-01T00:00:00Z' },
      },
    });
    const user = userEvent.setup();
    renderRoutes({ '/signup': <Signup />, '/dashboard': dashboard }, '/signup');
    await user.type(await screen.findByLabelText('First name'), 'Amira');
    await user.type(screen.getByLabelText('Last name'), 'Khan');
    await user.type(screen.getByLabelText('Email'), 'amira@example.org');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.selectOptions(screen.getByLabelText('I am a'), 'dad');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('dashboard page')).toBeInTheDocument();
    expect(screen.getByText('Account created')).toBeInTheDocument();
    expect(await sentBody(fetch, 'POST', '/api/auth/signup')).toMatchObject({
      role: 'dad',
      acceptTerms: true,
    });
  });

  it('says when sign-up is closed', async () => {
    mockApi({ 'GET /api/site': { status: 200, body: { ...site, signupOpen: false } } });
    renderRoutes({ '/signup': <Signup /> }, '/signup');
    expect(await screen.findByText(/Sign-up is closed on this server/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Account' })).not.toBeInTheDocument();
  });
});

describe('Guest', () => {
  it('needs a first name, notes the limits, and starts a guest session', async () => {
    const fetch = mockApi({
      'POST /api/auth/guest': {
        status: 201,
        body: {
          user: { ...amira, firstName: 'Guest_Sam', role: 'guest', isGuest: true },
          expiresAt: '2030-01-01T00:00:00Z',
        },
      },
    });
    const user = userEvent.setup();
    renderRoutes({ '/guest': <Guest />, '/dashboard': dashboard }, '/guest');
    expect(await screen.findByText(/Guest access has limited features/)).toBeInTheDocument();
    expect(screen.getByLabelText('Number of children')).toHaveValue(1);
    await user.click(screen.getByRole('button', { name: 'Continue as Guest' }));
    expect(await screen.findByText('Name required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('First name'), 'Sam');
    await user.clear(screen.getByLabelText('Number of children'));
    await user.type(screen.getByLabelText('Number of children'), '3');
    await user.click(screen.getByRole('button', { name: 'Continue as Guest' }));
    expect(await screen.findByText('dashboard page')).toBeInTheDocument();
    expect(screen.getByText("You're using the app as a guest")).toBeInTheDocument();
    expect(await sentBody(fetch, 'POST', '/api/auth/guest')).toEqual({
      firstName: 'Sam',
      children: 3,
    });
  });
});

describe('ResetPassword', () => {
  it('explains an invalid link', async () => {
    mockApi();
    renderRoutes({ '/reset-password/:token': <ResetPassword /> }, '/reset-password/nope');
    expect(await screen.findByText(/invalid or has expired/)).toBeInTheDocument();
  });

  it('needs matching passwords, then signs in', async () => {
    const fetch = mockApi({
      'GET /api/auth/reset-password/tok': { status: 200, body: { firstName: 'Amira' } },
      'POST /api/auth/reset-password/tok': signedIn,
    });
    const user = userEvent.setup();
    renderRoutes(
      { '/reset-password/:token': <ResetPassword />, '/dashboard': dashboard },
      '/reset-password/tok',
    );
    await user.type(await screen.findByLabelText('New password'), 'new password');
    await user.type(screen.getByLabelText('Confirm new password'), 'other password');
    await user.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'new password');
    await user.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(await screen.findByText('dashboard page')).toBeInTheDocument();
    expect(await sentBody(fetch, 'POST', '/api/auth/reset-password/tok')).toEqual({
      password: 'new password',
    });
  });
});
