import type { ReactNode, Ref, RefObject } from 'react';
import { Modal } from '../../common/modal.js';
import { Spinner } from '../../common/spinner.js';
import { ConsentButton, useConsentArmed } from './consent-guard.js';

/**
 * A server's sampling or elicitation dialog around a form: Esc or closing
 * calls `onClose` (the dialog's "no"), Enter in a field submits.
 */
export function ConsentFormModal({
  headingId,
  describedBy,
  initialFocus,
  formRef,
  onClose,
  onSubmit,
  children,
}: {
  headingId: string;
  describedBy?: string;
  initialFocus?: RefObject<HTMLElement | null>;
  formRef?: Ref<HTMLFormElement>;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      labelledBy={headingId}
      describedBy={describedBy}
      onClose={onClose}
      initialFocus={initialFocus}
      className="modal--wide consent-dialog"
      consent
    >
      <ArmedForm formRef={formRef} onSubmit={onSubmit}>
        {children}
      </ArmedForm>
    </Modal>
  );
}

/** The form of a consent dialog: a submit (Enter in a field) counts only once the dialog is armed. */
function ArmedForm({
  formRef,
  onSubmit,
  children,
}: {
  formRef?: Ref<HTMLFormElement> | undefined;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { isArmed } = useConsentArmed();
  return (
    <form
      ref={formRef}
      className="modal__content"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (isArmed()) onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** The header of a server's sampling or elicitation dialog: what it is, who asks, and an optional line. */
export function ConsentDialogHeader({
  eyebrow,
  headingId,
  title,
  subtitle,
}: {
  eyebrow: string;
  headingId: string;
  title: ReactNode;
  subtitle?: ReactNode;
}) {
  return (
    <header className="modal__header">
      <p className="consent-dialog__eyebrow">{eyebrow}</p>
      <h2 id={headingId}>{title}</h2>
      {subtitle !== undefined && <p className="modal__subtitle">{subtitle}</p>}
    </header>
  );
}

/** The name of the server that asks, as the dialogs show it. */
export function ServerName({ name }: { name: string }) {
  return <span className="consent-dialog__server">{name}</span>;
}

/**
 * The answers to an elicitation: Cancel (dismiss), Decline (say no) and the
 * accepting button, which submits the form when `submit` is set.
 */
export function ElicitationActions({
  busy,
  cancelRef,
  onCancel,
  onDecline,
  accept,
}: {
  busy: boolean;
  cancelRef?: Ref<HTMLButtonElement>;
  onCancel: () => void;
  onDecline: () => void;
  accept: { label: string; disabled: boolean; submit?: boolean; onClick?: () => void };
}) {
  return (
    <footer className="modal__footer">
      <button ref={cancelRef} type="button" className="btn" onClick={onCancel} disabled={busy}>
        Cancel
      </button>
      <ConsentButton type="button" className="btn btn--danger-quiet" onClick={onDecline} disabled={busy}>
        Decline
      </ConsentButton>
      <ConsentButton
        type={accept.submit === true ? 'submit' : 'button'}
        className="btn btn--primary"
        disabled={busy || accept.disabled}
        onClick={accept.onClick}
      >
        {busy && <Spinner />}
        {accept.label}
      </ConsentButton>
    </footer>
  );
}
