import { useId, useMemo, useRef, useState } from 'react';
import { buildForm, checkDraft, initialDraft } from '../../../../shared/model/elicitation-form.js';
import type { DraftValue, FormDraft } from '../../../../shared/model/elicitation-form.js';
import type { ConsentDialogProps } from '../consent/dialog-props.js';
import {
  ConsentDialogHeader,
  ConsentFormModal,
  ElicitationActions,
  ServerName,
} from '../consent/consent-dialog-parts.js';
import { ConsentError } from '../sampling/consent-error.js';
import { FormFieldControl } from './form-field-control.js';
import { ServerText } from '../../common/server-text.js';

type Props = ConsentDialogProps<'elicitationForm'>;

/**
 * A server asks the person for information: a form drawn from its schema,
 * defaults filled in, checked before "Accept". Decline says no; Cancel (or
 * Esc) dismisses without choosing.
 */
export function ElicitationFormDialog({ request, busy, onAnswer }: Props) {
  const headingId = useId();
  const messageId = `${headingId}-message`;
  const firstRef = useRef<HTMLInputElement & HTMLSelectElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useMemo(() => buildForm(request.prompt.requestedSchema), [request.prompt.requestedSchema]);
  const fields = useMemo(() => (form.ok ? form.fields : []), [form]);
  const [draft, setDraft] = useState<FormDraft>(() => initialDraft(fields));
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const check = useMemo(() => checkDraft(fields, draft), [fields, draft]);
  const errorOf = (name: string): string | undefined =>
    !check.ok && (submitted || touched.has(name)) ? check.errors[name] : undefined;

  const cancel = () => {
    onAnswer({ action: 'cancel' });
  };
  const accept = () => {
    setSubmitted(true);
    if (!check.ok) {
      // Take the person to the first field that needs attention (after React marks it invalid).
      requestAnimationFrame(() => {
        formRef.current
          ?.querySelector<HTMLElement>('[aria-invalid="true"] input, [aria-invalid="true"]')
          ?.focus();
      });
      return;
    }
    if (busy) return;
    onAnswer({ action: 'accept', content: check.content });
  };
  const errorCount = check.ok ? 0 : Object.keys(check.errors).length;

  return (
    <ConsentFormModal
      headingId={headingId}
      describedBy={messageId}
      initialFocus={firstRef}
      formRef={formRef}
      onClose={cancel}
      onSubmit={accept}
    >
      <ConsentDialogHeader
        eyebrow="Information request"
        headingId={headingId}
        title={
          <>
            <ServerName name={request.server} /> asks for information
          </>
        }
      />
      <div className="modal__body">
        <p id={messageId} className="consent-dialog__message">
          <ServerText text={request.prompt.message} />
        </p>
        {!form.ok && (
          <p className="inline-alert" role="alert">
            <strong>This form cannot be shown:</strong> {form.error}
          </p>
        )}
        {fields.map((field, i) => (
          <FormFieldControl
            key={field.name}
            field={field}
            value={draft[field.name]}
            error={errorOf(field.name)}
            inputRef={i === 0 ? firstRef : undefined}
            onChange={(value: DraftValue) => {
              setDraft((d) => ({ ...d, [field.name]: value }));
            }}
            onBlur={() => {
              setTouched((t) => new Set(t).add(field.name));
            }}
          />
        ))}
        {submitted && errorCount > 0 && (
          <p className="field__error" role="alert">
            {errorCount === 1 ? 'One field needs' : `${String(errorCount)} fields need`} your attention.
          </p>
        )}
        <p className="consent-dialog__note">
          Only what you accept is sent to <strong>{request.server}</strong>.
        </p>
        <ConsentError />
      </div>
      <ElicitationActions
        busy={busy}
        onCancel={cancel}
        onDecline={() => {
          onAnswer({ action: 'decline' });
        }}
        accept={{ label: 'Accept', disabled: !form.ok, submit: true }}
      />
    </ConsentFormModal>
  );
}
