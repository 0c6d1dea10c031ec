import { useId } from 'react';
import type { ReactNode } from 'react';
import { Spinner } from './spinner.js';

/**
 * One setting as a row: its title and a hint on the left, an on/off switch
 * on the right (a checkbox with the switch role: Space toggles it), a
 * spinner while the change is saved and the host's refusal below.
 */
export function SettingSwitch({
  title,
  hint,
  checked,
  busy,
  error,
  onChange,
}: {
  title: string;
  hint: ReactNode;
  checked: boolean;
  busy: boolean;
  /** The last change was refused: why, one line. */
  error?: string | undefined;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <>
      <div className="server-settings__row">
        <div>
          <p className="server-settings__title" id={`${id}-title`}>
            {title}
          </p>
          <p className="muted server-settings__hint" id={`${id}-hint`}>
            {hint}
          </p>
        </div>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            className="switch__input"
            aria-labelledby={`${id}-title`}
            aria-describedby={`${id}-hint`}
            checked={checked}
            disabled={busy}
            onChange={(event) => {
              onChange(event.target.checked);
            }}
          />
          <span className="switch__track" aria-hidden="true" />
        </label>
        {busy && <Spinner />}
      </div>
      {error !== undefined && (
        <div className="inline-alert" role="alert">
          {error}
        </div>
      )}
    </>
  );
}
