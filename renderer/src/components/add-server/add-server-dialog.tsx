import { useId, useMemo, useRef, useState } from 'react';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import { EMPTY_SERVER_FORM, parseServerForm } from '../../lib/server-form.js';
import type { ServerFormField, ServerFormValues } from '../../lib/server-form.js';
import { useActions } from '../../store/store-context.js';
import { Modal } from '../common/modal.js';
import { Spinner } from '../common/spinner.js';
import { FormField } from './form-field.js';

/**
 * The "Add server" form for a local (stdio) server. It checks the entry with
 * the contract's own schema as the person types, and shows the host's answer
 * (e.g. a name that already exists) when the host refuses it.
 */
export function AddServerDialog({ onClose }: { onClose: () => void }) {
  const headingId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const { addServer } = useActions();
  const [values, setValues] = useState<ServerFormValues>(EMPTY_SERVER_FORM);
  const [touched, setTouched] = useState<ReadonlySet<ServerFormField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [hostError, setHostError] = useState<HostErrorValue>();

  const check = useMemo(() => parseServerForm(values), [values]);
  const errorOf = (field: ServerFormField): string | undefined =>
    !check.ok && (submitted || touched.has(field)) ? check.errors[field] : undefined;

  const bind = (field: ServerFormField) => ({
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
    if (!check.ok || busy) return;
    setBusy(true);
    setHostError(undefined);
    const result = await addServer(check.input);
    setBusy(false);
    if (result.ok) onClose();
    else setHostError(result.error);
  };

  return (
    <Modal labelledBy={headingId} onClose={onClose} initialFocus={nameRef} className="modal--form">
      <form
        className="modal__content"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <header className="modal__header">
          <h2 id={headingId}>Add server</h2>
          <p className="modal__subtitle">
            A local server that the host starts as a process and talks to over stdio.
          </p>
        </header>

        <div className="modal__body">
          <FormField label="Name" placeholder="everything" inputRef={nameRef} {...bind('name')} />
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
            hint="One KEY=VALUE per line."
            {...bind('env')}
          />
          <FormField label="Working directory" optional mono placeholder="/path/to/folder" {...bind('cwd')} />
          {hostError && (
            <div className="inline-alert" role="alert">
              <strong>The server was not added.</strong> {hostError.message}
            </div>
          )}
        </div>

        <footer className="modal__footer">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy && <Spinner />}
            Add and connect
          </button>
        </footer>
      </form>
    </Modal>
  );
}
