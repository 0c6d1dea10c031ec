import { useId, useState } from 'react';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import { DEFAULT_REGISTRY_URL } from '../../../../shared/model/settings.js';
import { useChat, useChatActions } from '../chat/chat-context.js';

/** Where Browse looks for servers: the official MCP registry, or a company's own. */
export function RegistrySection() {
  const settings = useChat((s) => s.settings);
  const { saveSettings } = useChatActions();
  const [draft, setDraft] = useState<string>();
  const url = draft ?? settings?.registryUrl ?? '';
  const [error, setError] = useState<HostErrorValue>();
  const [saved, setSaved] = useState<string>();
  const id = useId();

  const save = (registryUrl: string) => {
    setError(undefined);
    setSaved(undefined);
    void saveSettings({ registryUrl }).then((result) => {
      if (result.ok) {
        setSaved('Registry saved.');
        setDraft(undefined);
      } else setError(result.error);
    });
  };

  return (
    <section className="card settings-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>MCP registry</h2>
      <p className="field__hint">
        Browse searches this registry. A company can run its own (https, or http on this computer).
      </p>
      <form
        className="settings-card__row"
        onSubmit={(event) => {
          event.preventDefault();
          save(url.trim());
        }}
      >
        <label htmlFor={id} className="field__label">
          Registry URL
        </label>
        <input
          id={id}
          type="url"
          className="field__control mono"
          spellCheck={false}
          value={url}
          onChange={(event) => {
            setDraft(event.target.value);
          }}
        />
        <button
          type="submit"
          className="btn"
          disabled={settings === undefined || url.trim() === settings.registryUrl}
        >
          Save registry
        </button>
        <button
          type="button"
          className="btn"
          disabled={settings === undefined || settings.registryUrl === DEFAULT_REGISTRY_URL}
          onClick={() => {
            save(DEFAULT_REGISTRY_URL);
          }}
        >
          Use the official registry
        </button>
      </form>
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
    </section>
  );
}
