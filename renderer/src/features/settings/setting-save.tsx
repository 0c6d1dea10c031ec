import { useState } from 'react';
import type { ReactNode } from 'react';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import type { UpdateSettings } from '../../../../shared/model/settings.js';
import { useChatActions } from '../chat/chat-context.js';

/**
 * Saving part of the settings from a card: the host's error or a short
 * confirmation, and `done` run once the host took the change (a draft is
 * dropped so the field shows the saved value).
 */
export function useSettingSave(done?: () => void) {
  const { saveSettings } = useChatActions();
  const [error, setError] = useState<HostErrorValue>();
  const [saved, setSaved] = useState<string>();
  const save = (update: UpdateSettings, what: string) => {
    setError(undefined);
    setSaved(undefined);
    void saveSettings(update).then((result) => {
      if (result.ok) {
        setSaved(what);
        done?.();
      } else setError(result.error);
    });
  };
  return { save, error, saved };
}

/** What the last save of a card came to: an alert with the host's line, or the confirmation. */
export function SaveOutcome({
  error,
  saved,
}: {
  error: HostErrorValue | undefined;
  saved: string | undefined;
}) {
  return (
    <>
      {error && (
        <div className="inline-alert" role="alert">
          {error.message}
        </div>
      )}
      {saved !== undefined && (
        <p className="settings-card__ok" role="status">
          {saved}
        </p>
      )}
    </>
  );
}

/** A labelled URL field with its Save button (and any other buttons of the row), saved on Enter too. */
export function UrlSettingForm(props: {
  id: string;
  label: string;
  value: string;
  /** The saved value: Save is off while the field holds it. */
  current: string | undefined;
  saveLabel: string;
  onChange: (value: string) => void;
  onSave: (value: string) => void;
  children?: ReactNode;
}) {
  const { id, label, value, current } = props;
  return (
    <form
      className="settings-card__row"
      onSubmit={(event) => {
        event.preventDefault();
        props.onSave(value.trim());
      }}
    >
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        id={id}
        type="url"
        className="field__control mono"
        spellCheck={false}
        value={value}
        onChange={(event) => {
          props.onChange(event.target.value);
        }}
      />
      <button type="submit" className="btn" disabled={current === undefined || value.trim() === current}>
        {props.saveLabel}
      </button>
      {props.children}
    </form>
  );
}
