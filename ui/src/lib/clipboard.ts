/**
 * How a copy went: through the clipboard API; through the older copy command with the text
 * shown selected; or not at all, with the text shown selected for the person to copy.
 */
export type CopyOutcome = 'copied' | 'copiedSelected' | 'selected';

/**
 * Copies `text`. Over plain http on a LAN (not a secure context) `navigator.clipboard` is
 * missing, and a browser may refuse it anyway: then `reveal` shows the text in a read-only field
 * and returns it, the field is selected, and `document.execCommand('copy')` is tried on it.
 * Call from a click, so the browser sees a person asking.
 */
export async function copyText(
  text: string,
  reveal: () => HTMLInputElement | HTMLTextAreaElement | null,
): Promise<CopyOutcome> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  if (clipboard && typeof clipboard.writeText === 'function') {
    try {
      await clipboard.writeText(text);
      return 'copied';
    } catch {
      // Refused (no permission, document not focused): fall back below.
    }
  }
  const field = reveal();
  if (!field) return 'selected';
  field.focus();
  field.select();
  field.setSelectionRange(0, field.value.length);
  let copied = false;
  try {
    copied = typeof document.execCommand === 'function' && document.execCommand('copy');
  } catch {
    copied = false;
  }
  return copied ? 'copiedSelected' : 'selected';
}
