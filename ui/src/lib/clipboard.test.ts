import { afterEach, describe, expect, it, vi } from 'vitest';

import { copyText } from './clipboard';

const LINK = 'http://192.168.1.20:8080/co-parent/accept/4b0f3c1e-8d1a-4c1e-9a3b-2f6d7e8a9b0c';

function field(): HTMLInputElement {
  const input = document.createElement('input');
  input.readOnly = true;
  input.value = LINK;
  document.body.append(input);
  return input;
}

function withClipboard(value: unknown) {
  Object.defineProperty(navigator, 'clipboard', { value, configurable: true });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
  Reflect.deleteProperty(document, 'execCommand');
  document.body.replaceChildren();
});

describe('copyText', () => {
  it('uses the clipboard API when there is one, showing nothing', async () => {
    const writeText = vi.fn(async () => undefined);
    withClipboard({ writeText });
    const reveal = vi.fn(field);
    expect(await copyText(LINK, reveal)).toBe('copied');
    expect(writeText).toHaveBeenCalledWith(LINK);
    expect(reveal).not.toHaveBeenCalled();
  });

  it('without one (plain http), selects the shown link and tries the copy command', async () => {
    withClipboard(undefined);
    const execCommand = vi.fn(() => true);
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    const input = field();
    expect(await copyText(LINK, () => input)).toBe('copiedSelected');
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(document.activeElement).toBe(input);
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, LINK.length]);
  });

  it('falls back the same way when the clipboard API refuses', async () => {
    withClipboard({ writeText: vi.fn(async () => Promise.reject(new Error('NotAllowedError'))) });
    Object.defineProperty(document, 'execCommand', { value: () => false, configurable: true });
    const input = field();
    expect(await copyText(LINK, () => input)).toBe('selected');
    expect(document.activeElement).toBe(input);
  });

  it('leaves the link selected when the copy command throws or is missing', async () => {
    withClipboard(undefined);
    Object.defineProperty(document, 'execCommand', {
      value: () => {
        throw new Error('not supported');
      },
      configurable: true,
    });
    expect(await copyText(LINK, field)).toBe('selected');
    Reflect.deleteProperty(document, 'execCommand');
    expect(await copyText(LINK, () => null)).toBe('selected');
  });
});
