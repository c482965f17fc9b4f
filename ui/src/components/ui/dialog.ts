import type { KeyboardEvent } from 'react';

/**
 * Helpers for native modal <dialog>s. `showModal()` makes the rest of the page inert, closes on
 * Escape (a `cancel` event) and gives focus back to the opener on `close()`; what it leaves to
 * the page is keeping Tab inside: at the last control Chrome moves focus out to the browser's
 * own UI (or the document) before coming back, which `keepFocusInside` prevents.
 */

/** Opens a dialog as a modal; jsdom has no showModal, so tests get the `open` attribute. */
export function showModal(dialog: HTMLDialogElement) {
  if (dialog.open) return;
  if (typeof dialog.showModal === 'function') dialog.showModal();
  else dialog.setAttribute('open', '');
}

/** Closes a dialog opened with `showModal`. */
export function closeModal(dialog: HTMLDialogElement) {
  if (!dialog.open) return;
  if (typeof dialog.close === 'function') dialog.close();
  else dialog.removeAttribute('open');
}

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/** The controls Tab stops at inside `root`, in order (one stop per radio group: the checked one). */
export function tabStops(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) =>
      el.tabIndex >= 0 &&
      el.getClientRects().length > 0 &&
      !(el instanceof HTMLInputElement && el.type === 'radio' && !el.checked),
  );
}

/** onKeyDown for a modal dialog: Tab past the last control goes to the first, and back. */
export function keepFocusInside(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== 'Tab' || event.defaultPrevented) return;
  const stops = tabStops(event.currentTarget);
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (!first || !last) {
    event.preventDefault();
    return;
  }
  const active = document.activeElement;
  const inside =
    active instanceof Node &&
    active !== event.currentTarget &&
    event.currentTarget.contains(active);
  if (event.shiftKey && (active === first || !inside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !inside)) {
    event.preventDefault();
    first.focus();
  }
}
