import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { ToastProvider } from './Toast';
import { useToast } from './toast-context';

function Buttons() {
  const { toast } = useToast();
  return (
    <>
      <button type="button" onClick={() => toast({ title: 'Error saving meal' })}>
        fail
      </button>
      <button type="button" onClick={() => toast({ variant: 'success', title: 'Meal recorded!' })}>
        succeed
      </button>
    </>
  );
}

describe('Toasts', () => {
  it('a success clears the stale error toast', async () => {
    const user = userEvent.setup();
    render(
      <ToastProvider>
        <Buttons />
      </ToastProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'fail' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Error saving meal');
    await user.click(screen.getByRole('button', { name: 'succeed' }));
    expect(screen.getByRole('status')).toHaveTextContent('Meal recorded!');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
