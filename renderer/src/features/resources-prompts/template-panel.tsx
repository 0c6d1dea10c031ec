import { useCallback, useMemo, useState } from 'react';
import type { ResourceTemplateInfo } from '../../../../shared/model/server.js';
import { previewUri, templateVariables } from './uri-template.js';
import { readOf } from './features-store.js';
import { useFeatureActions, useFeatures } from './features-context.js';
import { Spinner } from '../../common/spinner.js';
import { CompletionInput } from './completion-input.js';
import { AttachButton } from './attach-button.js';
import { HostErrorLine, ResourceContents } from './resource-contents.js';

/** A resource template: a field per variable (with the server's completions), then Read. */
export function TemplatePanel(props: {
  server: string;
  template: ResourceTemplateInfo;
  connected: boolean;
  canComplete: boolean;
}) {
  const { server, template, connected, canComplete } = props;
  const names = useMemo(() => templateVariables(template.uriTemplate), [template.uriTemplate]);
  const [values, setValues] = useState<Record<string, string>>({});
  const key = `template:${template.uriTemplate}`;
  const read = useFeatures((s) => readOf(s, server, key));
  const { read: readResource, complete } = useFeatureActions();
  const missing = names.filter((n) => (values[n] ?? '').trim() === '');
  const label = template.title ?? template.name;

  const completer = useCallback(
    (name: string) => async (value: string) => {
      const others = Object.fromEntries(Object.entries(values).filter(([n, v]) => n !== name && v !== ''));
      const result = await complete(
        server,
        { type: 'resource', uri: template.uriTemplate },
        { name, value },
        others,
      );
      return result.ok ? result.value.values : [];
    },
    // Suggestions depend on the other values only through `context`; recreating per change is cheap.
    [complete, server, template.uriTemplate, values],
  );

  const doRead = () => {
    if (missing.length > 0 || !connected) return;
    void readResource(server, key, { uriTemplate: template.uriTemplate, variables: values });
  };

  return (
    <div className="card tool-panel">
      <header className="tool-panel__header">
        <h3 className="tool-panel__heading">
          <span>{label}</span>
          <span className="tag">Template</span>
        </h3>
        {template.mimeType !== undefined && <span className="tag">{template.mimeType}</span>}
      </header>
      <code className="resource-card__uri">{template.uriTemplate}</code>
      {template.description !== undefined && (
        <p className="tool-panel__description">{template.description}</p>
      )}
      <form
        className="template-form"
        onSubmit={(event) => {
          event.preventDefault();
          doRead();
        }}
      >
        {names.map((name) => (
          <CompletionInput
            key={name}
            label={name}
            required
            value={values[name] ?? ''}
            onChange={(value) => {
              setValues((v) => ({ ...v, [name]: value }));
            }}
            complete={canComplete && connected ? completer(name) : undefined}
          />
        ))}
        <p className="field__hint">
          URI: <code className="mono">{previewUri(template.uriTemplate, values)}</code>
        </p>
        <div className="resource-actions">
          <button
            type="submit"
            className="btn btn--primary"
            disabled={!connected || read.loading || missing.length > 0}
            aria-busy={read.loading}
          >
            {read.loading ? (
              <>
                <Spinner />
                Reading…
              </>
            ) : (
              'Read'
            )}
          </button>
          {read.result && (
            <AttachButton
              server={server}
              uri={read.result.uri}
              label={read.result.uri}
              mimeType={template.mimeType}
            />
          )}
        </div>
      </form>
      {read.error && <HostErrorLine error={read.error} />}
      {read.result && <ResourceContents result={read.result} />}
    </div>
  );
}
