import { useId, useState } from 'react';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import { originOf } from '../../../../shared/model/settings.js';
import { useSecretStorage } from '../../common/secret-storage.js';
import { useChat, useChatActions } from '../chat/chat-context.js';
import { Spinner } from '../../common/spinner.js';

/**
 * The Anthropic API key. The host never sends the key back: this shows only
 * whether one is set and its hint, and lets the person replace or clear it.
 */
export function ApiKeySection() {
  const apiKey = useChat((s) => s.settings?.apiKey);
  const baseUrl = useChat((s) => s.settings?.baseUrl);
  const settingsError = useChat((s) => s.settingsError);
  const storage = useSecretStorage();
  const { setApiKey, clearApiKey, saveSettings } = useChatActions();
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostErrorValue>();
  const [saved, setSaved] = useState(false);
  const inputId = useId();
  const statusId = useId();

  const run = (action: () => Promise<{ ok: boolean; error?: HostErrorValue }>) => {
    setBusy(true);
    setError(undefined);
    setSaved(false);
    void action().then((result) => {
      setBusy(false);
      if (result.ok) {
        setKey('');
        setSaved(true);
      } else setError(result.error);
    });
  };

  return (
    <section className="card settings-card" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`}>Anthropic API key</h2>
      <p id={statusId} className="settings-card__status">
        {apiKey === undefined ? (
          settingsError ? (
            <span className="red">Settings could not be loaded: {settingsError.message}</span>
          ) : (
            'Loading…'
          )
        ) : apiKey.set ? (
          <>
            <span className="status status--connected">
              <span className="status__dot" />
              Set
            </span>{' '}
            <code>{apiKey.hint ?? '(hidden)'}</code>
          </>
        ) : apiKey.heldFor !== undefined ? (
          <>
            <span className="status status--stopped">
              <span className="status__dot" />
              Not sent to this host
            </span>{' '}
            <code>{apiKey.hint ?? '(hidden)'}</code>
          </>
        ) : (
          <span className="status status--stopped">
            <span className="status__dot" />
            Not set
          </span>
        )}
      </p>
      {apiKey?.heldFor !== undefined && baseUrl !== undefined && (
        <div className="settings-card__held">
          <p>
            Your key was saved for <code>{apiKey.heldFor}</code>. It is not sent to{' '}
            <code>{originOf(baseUrl)}</code>, the host of the base URL now, unless you allow it there or enter
            a key for that host.
          </p>
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={() => {
              run(() => saveSettings({ allowKeyFor: originOf(baseUrl) }));
            }}
          >
            Send my key to {originOf(baseUrl)}
          </button>
        </div>
      )}
      <form
        className="settings-card__row"
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim() !== '') run(() => setApiKey(key.trim()));
        }}
      >
        <label htmlFor={inputId} className="field__label">
          {apiKey?.set === true ? 'Replace key' : 'API key'}
        </label>
        <input
          id={inputId}
          type="password"
          className="field__control mono"
          autoComplete="off"
          spellCheck={false}
          placeholder="sk-ant-…"
          aria-describedby={statusId}
          value={key}
          onChange={(event) => {
            setKey(event.target.value);
            setSaved(false);
          }}
        />
        <button type="submit" className="btn btn--primary" disabled={busy || key.trim() === ''}>
          {busy && <Spinner />}
          Save key
        </button>
        {(apiKey?.set === true || apiKey?.heldFor !== undefined) && (
          <button
            type="button"
            className="btn btn--danger-quiet"
            disabled={busy}
            onClick={() => {
              run(clearApiKey);
            }}
          >
            Clear key
          </button>
        )}
      </form>
      {error && (
        <div className="inline-alert" role="alert">
          {error.message}
        </div>
      )}
      {saved && (
        <p className="settings-card__ok" role="status">
          Saved.
        </p>
      )}
      <p className={`field__hint${storage?.kind === 'obfuscated-file' ? ' settings-card__warn-text' : ''}`}>
        {storage?.sentence} The key is sent only to the host of the base URL it was entered for, and never
        shown again, not even here.
      </p>
    </section>
  );
}
