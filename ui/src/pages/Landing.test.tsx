import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';

import { mockApi, renderAt } from '../test-utils';
import Landing from './Landing';
import NotFound from './NotFound';

beforeEach(() => {
  mockApi();
});

describe('Landing page', () => {
  it('has every section of the spec with its texts', () => {
    renderAt(<Landing />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      "Love in Every Bite – Even When You're Not There.",
    );
    expect(screen.getAllByRole('link', { name: 'Get Started Free' })[0]).toHaveAttribute(
      'href',
      '/signup',
    );
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Continue as Guest' })).toHaveAttribute(
      'href',
      '/guest',
    );
    for (const heading of [
      'How It Works',
      'Add Your Kids',
      'Choose Meals',
      'Track Food',
      'Made for Co-Parents',
      'Savings & Simplicity',
    ]) {
      expect(screen.getByRole('heading', { name: heading })).toBeInTheDocument();
    }
    for (const figure of ['720 lbs', '30%', '60 lbs', '310 kg']) {
      expect(screen.getByText(figure)).toBeInTheDocument();
    }
    const stores = screen.getByRole('list', { name: 'Supported stores' });
    expect(stores.querySelectorAll('li')).toHaveLength(5);
    expect(screen.getByText('No credit card required')).toBeInTheDocument();
  });
});

describe('NotFound page', () => {
  it('says 404 and links home', () => {
    renderAt(<NotFound />);
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });
});
