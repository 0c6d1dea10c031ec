import { useId, useState } from 'react';
import { DEFAULT_REGISTRY_URL } from '../../../../shared/model/settings.js';
import { useChat } from '../chat/chat-context.js';
import { SaveOutcome, UrlSettingForm, useSettingSave } from './setting-save.js';

/** Where Browse looks for servers: the official MCP registry, or a company's own. */
export function RegistrySection() {
  const settings = useChat((s) => s.settings);
  const [draft, setDraft] = useState<string>();
  const url = draft ?? settings?.registryUrl ?? '';
  const { save, error, saved } = useSettingSave(() => {
    setDraft(undefined);
  });
  const id = useId();
  const saveUrl = (registryUrl: string) => {
    save({ registryUrl }, 'Registry saved.');
  };

  return (
    <section className="card settings-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>MCP registry</h2>
      <p className="field__hint">
        Browse searches this registry. A company can run its own (https, or http on this computer).
      </p>
      <UrlSettingForm
        id={id}
        label="Registry URL"
        value={url}
        current={settings?.registryUrl}
        saveLabel="Save registry"
        onChange={setDraft}
        onSave={saveUrl}
      >
        <button
          type="button"
          className="btn"
          disabled={settings === undefined || settings.registryUrl === DEFAULT_REGISTRY_URL}
          onClick={() => {
            saveUrl(DEFAULT_REGISTRY_URL);
          }}
        >
          Use the official registry
        </button>
      </UrlSettingForm>
      <SaveOutcome error={error} saved={saved} />
    </section>
  );
}
