import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { mockApi, renderAt, site as siteBody } from '../test-utils';
import Contact from './Contact';

const site = { status: 200, body: siteBody };

async function fill(
  user: ReturnType<typeof userEvent.setup>,
  name: string,
  email: string,
  message: string,
) {
  if (name) await user.type(screen.getByLabelText('Name'), name);
  if (email) await user.type(screen.getByLabelText('Email'), email);
  if (message) await user.type(screen.getByLabelText('Message'), message);
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Contact page', () => {
  it('shows the spec messages and sends nothing when the form is invalid', async () => {
    const fetch = mockApi({ 'GET /api/site': site });
    const user = userEvent.setup();
    renderAt(<Contact />);
    await fill(user, 'S', 'not-an-email', 'short');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(screen.getByText('Name must be at least 2 characters')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Message must be at least 10 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(fetch.mock.calls.some(([r]) => (r as Request).method === 'POST')).toBe(false);
  });

  it('posts the message, thanks the visitor and clears the form', async () => {
    const fetch = mockApi({
      'GET /api/site': site,
      'POST /api/contact': { status: 201, body: { id: 'x', receivedAt: '2025-01-01T00:00:00Z' } },
    });
    const user = userEvent.setup();
    renderAt(<Contact />);
    await fill(user, 'Sam Jones', 'sam@example.org', 'Hello, this is a message.');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Message sent')).toBeInTheDocument();
    const post = fetch.mock.calls.map(([r]) => r as Request).find((r) => r.method === 'POST');
    expect(await post?.json()).toEqual({
      name: 'Sam Jones',
      email: 'sam@example.org',
      message: 'Hello, this is a message.',
    });
    expect(screen.getByLabelText('Name')).toHaveValue('');
  });

  it('shows the error toast when the server fails', async () => {
    mockApi({
      'GET /api/site': site,
      'POST /api/contact': {
        status: 500,
        body: { title: 'Something went wrong', message: 'x', field: null },
      },
    });
    const user = userEvent.setup();
    renderAt(<Contact />);
    await fill(user, 'Sam Jones', 'sam@example.org', 'Hello, this is a message.');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Error sending message')).toBeInTheDocument();
    expect(screen.getByText('Please try again later.')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Sam Jones');
  });

  it("puts a server field error under that field and shows the limit's toast", async () => {
    mockApi({
      'GET /api/site': site,
      'POST /api/contact': {
        status: 429,
        body: {
          title: 'Too many attempts',
          message: 'Please try again after 12 minutes',
          field: null,
        },
      },
    });
    const user = userEvent.setup();
    renderAt(<Contact />);
    await fill(user, 'Sam Jones', 'sam@example.org', 'Hello, this is a message.');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Too many attempts')).toBeInTheDocument();
    expect(screen.getByText('Please try again after 12 minutes')).toBeInTheDocument();
  });

  it('lists the support hours and the contact e-mail when configured', async () => {
    mockApi({
      'GET /api/site': { ...site, body: { ...site.body, contactEmail: 'help@family.example' } },
    });
    renderAt(<Contact />);
    expect(await screen.findByRole('link', { name: 'help@family.example' })).toHaveAttribute(
      'href',
      'mailto:help@family.example',
    );
    expect(screen.getByText('9:00 AM - 6:00 PM')).toBeInTheDocument();
    expect(screen.getByText('10:00 AM - 3:00 PM')).toBeInTheDocument();
    expect(screen.getByText('Closed')).toBeInTheDocument();
  });
});
