import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { ApiFailure } from '../api/client';
import { Button } from '../components/ui/Button';
import { Input } from '../components/ui/Input';
import { ToastProvider } from '../components/ui/Toast';
import { useSubmit, type SubmitOptions } from './useSubmit';

/** A deferred answer the test settles. */
function pending<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (reason: unknown) => void = () => {};
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

function Form({
  action,
  options,
}: {
  action: (signal: AbortSignal) => Promise<string>;
  options: Partial<SubmitOptions<string>>;
}) {
  const submit = useSubmit(action, { failureTitle: 'Error saving', ...options });
  return (
    <form onSubmit={submit.onSubmit} noValidate>
      <Input label="Name" error={submit.fieldErrors.name} />
      <Button type="submit" busy={submit.busy} busyLabel="Saving...">
        Save
      </Button>
      <Button variant="ghost" onClick={submit.cancel}>
        Cancel
      </Button>
    </form>
  );
}

const renderForm = (...args: Parameters<typeof Form>) =>
  render(
    <ToastProvider>
      <Form {...args[0]} />
    </ToastProvider>,
  );

describe('useSubmit', () => {
  it('is busy once at a time, then reports success', async () => {
    const answer = pending<string>();
    const action = vi.fn(() => answer.promise);
    const onSuccess = vi.fn();
    const user = userEvent.setup();
    renderForm({ action, options: { onSuccess } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const busy = screen.getByRole('button', { name: 'Saving...' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    screen.getByRole('textbox').closest('form')?.requestSubmit();
    expect(action).toHaveBeenCalledTimes(1);
    answer.resolve('done');
    await waitFor(() => expect(onSuccess).toHaveBeenCalledWith('done'));
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it("shows a failure as a toast with the server's title and marks its field", async () => {
    const action = vi.fn(() =>
      Promise.reject(
        new ApiFailure(400, { title: 'Invalid name', message: 'Too long', field: 'name' }, 'x'),
      ),
    );
    const user = userEvent.setup();
    renderForm({ action, options: {} });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid name');
    const name = screen.getByLabelText('Name');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    const message = document.getElementById(name.getAttribute('aria-describedby') ?? '');
    expect(message).toHaveTextContent('Too long');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('uses the screen title for server failures', async () => {
    const action = () =>
      Promise.reject(new ApiFailure(500, { title: 'Internal', message: 'Nothing saved' }, 'x'));
    const user = userEvent.setup();
    renderForm({ action, options: {} });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error saving');
  });

  it('sends nothing when the check finds a problem', async () => {
    const action = vi.fn(() => Promise.resolve('x'));
    const user = userEvent.setup();
    renderForm({ action, options: { check: () => ({ fields: { name: 'Name is required' } }) } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(action).not.toHaveBeenCalled();
  });

  it('cancel aborts the request and forgets its answer', async () => {
    const answer = pending<string>();
    let signal: AbortSignal | undefined;
    const onSuccess = vi.fn();
    const user = userEvent.setup();
    renderForm({
      action: (s) => {
        signal = s;
        return answer.promise;
      },
      options: { onSuccess },
    });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(signal?.aborted).toBe(true);
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
    answer.resolve('late');
    await new Promise((r) => setTimeout(r, 10));
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it('ignores the result once the form is gone', async () => {
    const answer = pending<string>();
    let signal: AbortSignal | undefined;
    const onSuccess = vi.fn();
    const onFailure = vi.fn();
    const user = userEvent.setup();
    const { unmount } = renderForm({
      action: (s) => {
        signal = s;
        return answer.promise;
      },
      options: { onSuccess, onFailure },
    });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    unmount();
    expect(signal?.aborted).toBe(true);
    answer.reject(new Error('aborted'));
    await new Promise((r) => setTimeout(r, 10));
    expect(onSuccess).not.toHaveBeenCalled();
    expect(onFailure).not.toHaveBeenCalled();
  });
});
