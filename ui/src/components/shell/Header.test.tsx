import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { mockApi, renderAt, signedIn } from '../../test-utils';
import { Footer, TAGLINE } from './Footer';
import { Header } from './Header';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Header', () => {
  it('links the features and the account pages', async () => {
    mockApi();
    renderAt(<Header />);
    await screen.findAllByRole('link', { name: 'Log In' });
    const main = screen.getByRole('navigation', { name: 'Main' });
    expect(within(main).getByRole('link', { name: 'Meal Tracker' })).toHaveAttribute(
      'href',
      '/meal-tracker',
    );
    expect(within(main).getByRole('link', { name: 'Recipes' })).toHaveAttribute('href', '/recipes');
    expect(within(main).getByRole('link', { name: 'Grocery List' })).toHaveAttribute(
      'href',
      '/grocery-list',
    );
    expect(screen.getAllByRole('link', { name: 'Log In' })[0]).toHaveAttribute('href', '/login');
    expect(screen.getAllByRole('link', { name: 'Sign Up' })[0]).toHaveAttribute('href', '/signup');
    expect(screen.getByRole('link', { name: 'Highchair home' })).toHaveAttribute('href', '/');
  });

  it('opens a side menu with the same items and closes it with Escape', async () => {
    mockApi();
    const user = userEvent.setup();
    renderAt(<Header />);
    await screen.findAllByRole('link', { name: 'Log In' });
    expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = screen.getByRole('dialog', { name: 'Menu' });
    for (const label of ['Meal Tracker', 'Recipes', 'Grocery List', 'Log In', 'Sign Up']) {
      expect(within(menu).getByRole('link', { name: label })).toBeInTheDocument();
    }
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();
  });

  it('closes the side menu when a link is followed', async () => {
    mockApi();
    const user = userEvent.setup();
    renderAt(<Header />);
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Menu' })).getByRole('link', { name: 'Recipes' }),
    );
    expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();
  });
});

describe('Header when signed in', () => {
  it('greets the parent and offers Profile and Log Out instead of Log In', async () => {
    mockApi({ 'GET /api/auth/session': signedIn });
    renderAt(<Header />);
    expect(await screen.findByText('Welcome, Amira! 👋')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    expect(screen.getByRole('button', { name: 'Log Out' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log In' })).not.toBeInTheDocument();
  });

  it('logs out, goes home and says so', async () => {
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'POST /api/auth/logout': { status: 204, body: null },
    });
    const user = userEvent.setup();
    renderAt(<Header />, '/profile');
    await user.click(await screen.findByRole('button', { name: 'Log Out' }));
    expect(await screen.findByText('Signed out')).toBeInTheDocument();
    expect(screen.getByText('You have been successfully signed out')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(fetch.mock.calls.some(([r]) => (r as Request).method === 'POST')).toBe(true);
    expect(await screen.findAllByRole('link', { name: 'Log In' })).not.toHaveLength(0);
  });
});

describe('Footer', () => {
  it('has the policy links and the tagline', () => {
    mockApi();
    renderAt(<Footer />);
    expect(screen.getByText('Simplifying mealtimes for families')).toBeInTheDocument();
    expect(TAGLINE).toBe('Simplifying mealtimes for families');
    const nav = screen.getByRole('navigation', { name: 'Footer' });
    expect(within(nav).getByRole('link', { name: 'About' })).toHaveAttribute('href', '/about');
    expect(within(nav).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/privacy',
    );
    expect(within(nav).getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      '/terms',
    );
    expect(within(nav).getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact');
  });
});
