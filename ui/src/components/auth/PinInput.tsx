import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { PIN_LENGTH, pinDigits } from '../../lib/coParents';

interface PinInputProps {
  /** What the six boxes are for ('PIN', 'Confirm PIN'): their group's name. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  invalid?: boolean;
  /** The id of the text that describes an error, for screen readers. */
  describedBy?: string;
  autoFocus?: boolean;
}

/**
 * Six one-digit boxes (spec: the PIN entry has 6 slots). The phone shows its number pad; a
 * pasted or autofilled PIN fills every box; Backspace on an empty box goes back one.
 */
export function PinInput({
  label,
  value,
  onChange,
  disabled,
  invalid,
  describedBy,
  autoFocus,
}: PinInputProps) {
  const { t } = useTranslation();
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const focus = (i: number) => boxes.current[Math.max(0, Math.min(PIN_LENGTH - 1, i))]?.focus();

  // Digits typed or pasted at box `i` replace what follows it.
  const put = (i: number, text: string) => {
    const digits = pinDigits(text);
    if (!digits) return;
    const next = pinDigits(value.slice(0, i) + digits);
    onChange(next);
    focus(next.length);
  };

  const onKeyDown = (i: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace') {
      event.preventDefault();
      const cut = value[i] ? i : i - 1;
      if (cut < 0) return;
      onChange(value.slice(0, cut));
      focus(cut);
    } else if (event.key === 'ArrowLeft') {
      focus(i - 1);
    } else if (event.key === 'ArrowRight') {
      focus(i + 1);
    }
  };

  const onPaste = (i: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    put(i, event.clipboardData.getData('text'));
  };

  return (
    <div role="group" aria-label={label} className="flex justify-center gap-2">
      {Array.from({ length: PIN_LENGTH }, (_, i) => (
        <input
          key={i}
          ref={(el) => {
            boxes.current[i] = el;
          }}
          value={value[i] ?? ''}
          onChange={(event) => put(i, event.target.value)}
          onKeyDown={(event) => onKeyDown(i, event)}
          onPaste={(event) => onPaste(i, event)}
          onFocus={(event) => event.target.select()}
          // A box past the first empty one sends the cursor back to it.
          onMouseDown={(event) => {
            if (i > value.length) {
              event.preventDefault();
              focus(value.length);
            }
          }}
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={i === 0 ? 'one-time-code' : 'off'}
          autoFocus={autoFocus && i === 0}
          disabled={disabled}
          aria-label={t('auth.pin.digit', { label, n: i + 1, total: PIN_LENGTH })}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          // min-w-0: on a 320 px phone the six boxes narrow to fit the card instead of
          // running past its edge.
          className={`input input-bordered h-12 w-10 min-w-0 px-0 text-center text-xl sm:h-14 sm:w-12 ${invalid ? 'input-error' : ''}`}
        />
      ))}
    </div>
  );
}
