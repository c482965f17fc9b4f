import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { ConfirmDialog } from './ConfirmDialog';
import { ToastProvider } from './Toast';
import { useConfirmDelete, type ConfirmDeleteOptions } from './useConfirmDelete';

type Thing = { id: string; name: string };
const milk: Thing = { id: 't1', name: 'Milk' };

function Things(props: Partial<ConfirmDeleteOptions<Thing>>) {
  const deletion = useConfirmDelete<Thing>({
    remove: async () => {},
    failureTitle: 'Error deleting thing',
    done: (thing) => ({ title: 'Thing deleted', description: thing.name }),
    ...props,
  });
  return (
    <>
      <button type="button" onClick={() => deletion.ask(milk)}>
        Delete Milk
      </button>
      <ConfirmDialog
        {...deletion.dialog}
        title="Delete thing?"
        message={`Delete ${deletion.target?.name ?? 'this thing'}?`}
        confirmLabel="Delete"
      />
    </>
  );
}

async function confirm(props: Partial<ConfirmDeleteOptions<Thing>>) {
  const user = userEvent.setup();
  render(
    <ToastProvider>
      <Things {...props} />
    </ToastProvider>,
  );
  await user.click(screen.getByRole('button', { name: 'Delete Milk' }));
  const dialog = screen.getByRole('dialog', { name: 'Delete thing?' });
  expect(dialog).toHaveTextContent('Delete Milk?');
  return { user, dialog };
}

describe('useConfirmDelete', () => {
  it('removes what was asked about, toasts and closes', async () => {
    const remove = vi.fn(async () => {});
    const onDone = vi.fn();
    const { user, dialog } = await confirm({ remove, onDone });
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Thing deleted'));
    expect(remove).toHaveBeenCalledWith(milk, expect.any(AbortSignal));
    expect(onDone).toHaveBeenCalledWith(milk);
    expect(dialog).not.toBeVisible();
  });

  it('keeps the dialog open after a failure, unless told to close', async () => {
    const remove = async () => Promise.reject(new Error('boom'));
    const { user, dialog } = await confirm({ remove });
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Error deleting thing'),
    );
    expect(dialog).toBeVisible();
  });

  it('closes after a failure shown by the caller', async () => {
    const onFailure = vi.fn(() => true);
    const { user, dialog } = await confirm({
      remove: async () => Promise.reject(new Error('boom')),
      onFailure,
      closeOnFailure: true,
    });
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(dialog).not.toBeVisible());
    expect(onFailure).toHaveBeenCalledOnce();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('stops the request on Cancel only when asked to', async () => {
    const signals: AbortSignal[] = [];
    const remove = (_: Thing, signal: AbortSignal) => {
      signals.push(signal);
      return new Promise<void>(() => {});
    };
    const { user } = await confirm({ remove, abortOnCancel: true });
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(signals[0]?.aborted).toBe(true);
  });
});
