import { useEffect, useId, useState } from 'react';
import { originOf } from '../../../../shared/model/settings.js';
import { useChat, useChatActions } from '../chat/chat-context.js';
import { Spinner } from '../../common/spinner.js';
import { SaveOutcome, UrlSettingForm, useSettingSave } from './setting-save.js';

/** The Messages API endpoint and the model, picked from the models API when it answers. */
export function ConnectionSection() {
  const settings = useChat((s) => s.settings);
  const models = useChat((s) => s.models);
  const modelsLoading = useChat((s) => s.modelsLoading);
  const keySet = settings?.apiKey.set;
  /** The saved key belongs to another host: it is not sent to this base URL until allowed. */
  const heldFor = settings?.apiKey.heldFor;
  const { loadModels } = useChatActions();
  // undefined until the person edits: the field shows the host's value.
  const [draft, setDraft] = useState<string>();
  const baseUrl = draft ?? settings?.baseUrl ?? '';
  const { save, error, saved } = useSettingSave(() => {
    setDraft(undefined);
  });
  const urlId = useId();
  const modelId = useId();

  // The list depends on the key and the endpoint; ask again when either changes.
  useEffect(() => {
    if (settings) void loadModels();
  }, [keySet, settings?.baseUrl]); // eslint-disable-line react-hooks/exhaustive-deps -- see above

  const options = models?.models ?? [];
  const current = settings?.model;
  const known = options.some((m) => m.id === current);

  return (
    <section className="card settings-card" aria-labelledby={`${urlId}-title`}>
      <h2 id={`${urlId}-title`}>Model and endpoint</h2>
      <UrlSettingForm
        id={urlId}
        label="Base URL"
        value={baseUrl}
        current={settings?.baseUrl}
        saveLabel="Save"
        onChange={setDraft}
        onSave={(url) => {
          save({ baseUrl: url }, 'Base URL saved.');
        }}
      />
      <div className="settings-card__row">
        <label htmlFor={modelId} className="field__label">
          Model
        </label>
        <select
          id={modelId}
          className="field__control"
          value={current ?? ''}
          disabled={settings === undefined}
          onChange={(event) => {
            save({ model: event.target.value }, 'Model saved.');
          }}
        >
          {current !== undefined && !known && <option value={current}>{current}</option>}
          {options.map((model) => (
            <option key={model.id} value={model.id}>
              {model.displayName === model.id ? model.id : `${model.displayName} (${model.id})`}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn"
          disabled={modelsLoading}
          onClick={() => {
            void loadModels();
          }}
        >
          {modelsLoading && <Spinner />}
          Refresh list
        </button>
      </div>
      {models?.source === 'default' && (
        <p className="field__hint">
          Showing the default list{models.error !== undefined ? `: ${models.error}` : ''}.
        </p>
      )}
      {heldFor !== undefined && settings !== undefined && (
        <p className="field__hint settings-card__held">
          <button
            type="button"
            className="btn btn--small"
            onClick={() => {
              save({ allowKeyFor: originOf(settings.baseUrl) }, 'Key allowed for this host.');
            }}
          >
            Send my key to {originOf(settings.baseUrl)}
          </button>
        </p>
      )}
      <SaveOutcome error={error} saved={saved} />
    </section>
  );
}
