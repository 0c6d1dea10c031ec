import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import { EMPTY_ENTRY_FORM, entryFormOf, parseServerEntryForm } from './server-entry-form.js';
import type { ServerEntryField, ServerEntryFormValues } from './server-entry-form.js';
import { useHost } from '../../store/area-context.js';
import { useActions } from '../../store/store-context.js';
import { FormField } from './form-field.js';
import { Modal } from '../../common/modal.js';
import { Spinner } from '../../common/spinner.js';
import { OAuthSection } from './oauth-section.js';

interface ServerFormDialogProps {
  onClose: () => void;
  /** Edit this server; without it the dialog adds a new one. */
  editing?: string;
}

/**
 * The add/edit form for a server: local (command, arguments, environment,
 * folder) or remote (URL, transport, headers, OAuth client). Checked with the contract's
 * own schemas as the person types; the host checks again, asks before a new
 * or changed command is started, writes the file and (re)starts the server.
 */
export function ServerFormDialog({ onClose, editing }: ServerFormDialogProps) {
  const headingId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const host = useHost();
  const { selectServer } = useActions();
  const [values, setValues] = useState<ServerEntryFormValues>(EMPTY_ENTRY_FORM);
  const [loading, setLoading] = useState(editing !== undefined);
  const [touched, setTouched] = useState<ReadonlySet<ServerEntryField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [hostError, setHostError] = useState<HostErrorValue>();

  useEffect(() => {
    if (editing === undefined) return;
    let live = true;
    void host.getServerInput({ name: editing }).then((result) => {
      if (!live) return;
      setLoading(false);
      if (result.ok) setValues(entryFormOf(result.value));
      else setHostError(result.error);
    });
    return () => {
      live = false;
    };
  }, [editing, host]);

  const check = useMemo(() => parseServerEntryForm(values), [values]);
  const errorOf = (field: ServerEntryField): string | undefined =>
    !check.ok && (submitted || touched.has(field)) ? check.errors[field] : undefined;

  const bind = (field: Exclude<ServerEntryField, 'type'>) => ({
    value: values[field],
    error: errorOf(field),
    onChange: (value: string) => {
      setValues((v) => ({ ...v, [field]: value }));
    },
    onBlur: () => {
      setTouched((t) => new Set(t).add(field));
    },
  });

  const submit = async () => {
    setSubmitted(true);
    if (!check.ok || busy || loading) return;
    setBusy(true);
    setHostError(undefined);
    const result = await host.saveServer({
      ...(editing !== undefined ? { originalName: editing } : {}),
      input: check.input,
    });
    setBusy(false);
    if (!result.ok) {
      setHostError(result.error);
      return;
    }
    selectServer(result.value.name);
    onClose();
  };

  const remote = values.transport === 'http';
  const title = editing === undefined ? 'Add server' : `Edit “${editing}”`;

  return (
    <Modal labelledBy={headingId} onClose={onClose} initialFocus={nameRef} className="modal--form">
      <form
        className="modal__content"
        noValidate
        aria-busy={loading}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <header className="modal__header">
          <h2 id={headingId}>{title}</h2>
          <p className="modal__subtitle">
            {remote
              ? 'A remote server the host reaches over HTTP.'
              : 'A local server that the host starts as a process and talks to over stdio.'}
          </p>
        </header>

        <div className="modal__body">
          {loading && (
            <p className="muted" role="status">
              <Spinner /> Loading the stored entry…
            </p>
          )}
          <fieldset className="segmented" disabled={loading}>
            <legend className="field__label">Kind</legend>
            {(['stdio', 'http'] as const).map((kind) => (
              <label key={kind} className="segmented__option">
                <input
                  type="radio"
                  name="transport"
                  value={kind}
                  checked={values.transport === kind}
                  onChange={() => {
                    setValues((v) => ({ ...v, transport: kind }));
                  }}
                />
                {kind === 'stdio' ? 'Local (stdio)' : 'Remote (HTTP)'}
              </label>
            ))}
          </fieldset>
          <FormField label="Name" placeholder="everything" inputRef={nameRef} {...bind('name')} />
          {remote ? (
            <>
              <FormField label="URL" placeholder="https://example.com/mcp" mono {...bind('url')} />
              <div className="field">
                <label className="field__label" htmlFor={`${headingId}-type`}>
                  Transport
                </label>
                <select
                  id={`${headingId}-type`}
                  className="field__control"
                  value={values.type}
                  onChange={(event) => {
                    const type = event.target.value;
                    setValues((v) => ({ ...v, type: type === 'sse' || type === 'http' ? type : '' }));
                  }}
                >
                  <option value="">Automatic (Streamable HTTP, then SSE)</option>
                  <option value="http">Streamable HTTP</option>
                  <option value="sse">HTTP+SSE (legacy)</option>
                </select>
              </div>
              <FormField
                label="Headers"
                multiline
                mono
                optional
                placeholder="Authorization: Bearer …"
                hint="One Name: value per line."
                {...bind('headers')}
              />
              <OAuthSection
                values={values}
                bind={bind}
                onStoredSecret={(state) => {
                  setValues((v) => ({ ...v, oauthStoredSecret: state }));
                }}
              />
            </>
          ) : (
            <>
              <FormField label="Command" placeholder="npx" mono {...bind('command')} />
              <FormField
                label="Arguments"
                multiline
                mono
                placeholder={'-y\n@modelcontextprotocol/server-everything'}
                hint="One argument per line."
                {...bind('args')}
              />
              <FormField
                label="Environment"
                multiline
                mono
                placeholder="API_KEY=…"
                hint="One KEY=VALUE per line. ${env:NAME} takes a value from your environment."
                {...bind('env')}
              />
              <FormField
                label="Working directory"
                optional
                mono
                placeholder="/path/to/folder"
                {...bind('cwd')}
              />
            </>
          )}
          {hostError && (
            <div className="inline-alert" role="alert">
              <strong>{editing === undefined ? 'The server was not added.' : 'Not saved.'}</strong>{' '}
              {hostError.message}
            </div>
          )}
        </div>

        <footer className="modal__footer">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy || loading}>
            {busy && <Spinner />}
            {editing === undefined ? 'Add and connect' : 'Save and restart'}
          </button>
        </footer>
      </form>
    </Modal>
  );
}
