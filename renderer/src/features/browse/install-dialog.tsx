import { useId, useRef, useState } from 'react';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import type { InstallOption, InstallPreview, PendingInstall } from '../../../../shared/model/registry.js';
import { safeLinkUrl } from '../../common/safe-url.js';
import { useHost } from '../../store/area-context.js';
import { FormField } from '../config/form-field.js';
import { Modal } from '../../common/modal.js';
import { ServerText } from '../../common/server-text.js';
import { Spinner } from '../../common/spinner.js';
import { InstallFields, initialValues } from './install-fields.js';
import { LaunchView, TemplateView } from './launch-view.js';
import { ConsentButton } from '../consent/consent-guard.js';

interface InstallDialogProps {
  /** Prepared by the host (from the registry or a link); only its id goes back. */
  pending: PendingInstall;
  onClose: () => void;
  onInstalled: (name: string) => void;
}

/**
 * Installing one registry entry or link: pick how to run it (a package or a
 * remote), name it, fill in the values it asks for (secrets masked), review
 * the exact command or URL with those values, and only then install. The
 * host checks everything again and asks the launch confirmation before it
 * starts anything.
 */
export function InstallDialog({ pending, onClose, onInstalled }: InstallDialogProps) {
  const headingId = useId();
  const host = useHost();
  const firstUsable = pending.options.find((o) => o.problem === undefined);
  const [optionIndex, setOptionIndex] = useState(firstUsable?.index);
  const option = pending.options.find((o) => o.index === optionIndex);
  const [name, setName] = useState(pending.suggestedName);
  const [values, setValues] = useState<Record<string, string>>(() => initialValues(firstUsable));
  const [preview, setPreview] = useState<InstallPreview>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostErrorValue>();
  const nameRef = useRef<HTMLInputElement>(null);
  const installRef = useRef<HTMLButtonElement>(null);

  const request = () => ({ id: pending.id, option: optionIndex ?? 0, name: name.trim(), values });

  const close = () => {
    // Closing is the answer "no": the host forgets the pending install.
    void host.dismissInstall({ id: pending.id });
    onClose();
  };

  const review = async () => {
    if (option === undefined || busy) return;
    setBusy(true);
    setError(undefined);
    const result = await host.previewInstall(request());
    setBusy(false);
    if (result.ok) {
      setPreview(result.value);
      requestAnimationFrame(() => installRef.current?.focus());
    } else setError(result.error);
  };

  const install = async () => {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    const result = await host.installServer(request());
    setBusy(false);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    onClose();
    onInstalled(result.value.name);
  };

  const pick = (next: InstallOption) => {
    setOptionIndex(next.index);
    setValues(initialValues(next));
    setError(undefined);
  };

  const title = pending.title ?? pending.entryName;
  const repository = pending.repositoryUrl !== undefined ? safeLinkUrl(pending.repositoryUrl) : '';

  return (
    <Modal
      labelledBy={headingId}
      onClose={close}
      initialFocus={nameRef}
      className="modal--form"
      closeOnBackdrop={false}
      consent
    >
      <form
        className="modal__content install-dialog"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void (preview ? install() : review());
        }}
      >
        <header className="modal__header">
          <h2 id={headingId}>
            Install <ServerText text={title} />
            {pending.version !== undefined && (
              <span className="install-dialog__version mono"> {pending.version}</span>
            )}
          </h2>
          <p className="modal__subtitle">
            From {pending.source === 'link' ? pending.origin : <span className="mono">{pending.origin}</span>}
            {pending.title !== undefined && (
              <>
                {' · '}
                <span className="mono">
                  <ServerText text={pending.entryName} />
                </span>
              </>
            )}
          </p>
        </header>

        <div className="modal__body">
          {pending.description !== undefined && pending.description !== '' && (
            <p className="install-dialog__description">
              <ServerText text={pending.description} />
            </p>
          )}
          {repository !== '' && (
            <p>
              <a href={repository} target="_blank" rel="noopener noreferrer">
                Repository · {new URL(repository).host}
              </a>
            </p>
          )}
          {pending.warnings.map((warning) => (
            <p key={warning} className="install-dialog__warning" role="note">
              <ServerText text={warning} />
            </p>
          ))}

          {preview ? (
            <section aria-label="What will be installed" className="install-dialog__review">
              <p>
                <strong>“{preview.name}” will run exactly this</strong>, and start when you install it:
              </p>
              <LaunchView preview={preview} />
            </section>
          ) : (
            <>
              {pending.options.length > 1 && (
                <fieldset className="install-dialog__options">
                  <legend className="field__label">How to run it</legend>
                  {pending.options.map((o) => (
                    <label key={o.index} className="install-option">
                      <input
                        type="radio"
                        name={`${headingId}-option`}
                        checked={o.index === optionIndex}
                        disabled={o.problem !== undefined}
                        onChange={() => {
                          pick(o);
                        }}
                      />
                      <span>
                        <ServerText text={o.label} />
                        {o.problem !== undefined && (
                          <span className="install-option__problem"> — {o.problem}</span>
                        )}
                      </span>
                    </label>
                  ))}
                </fieldset>
              )}
              {pending.options.length === 1 && pending.options[0]?.problem !== undefined && (
                <div className="inline-alert" role="alert">
                  {pending.options[0].problem}
                </div>
              )}
              {pending.options.length === 0 && (
                <div className="inline-alert" role="alert">
                  This entry has nothing the app can install.
                </div>
              )}
              {option && (
                <>
                  <TemplateView option={option} />
                  <FormField
                    label="Server name"
                    value={name}
                    inputRef={nameRef}
                    onChange={(next) => {
                      setName(next);
                      setError(undefined);
                    }}
                  />
                  <InstallFields
                    fields={option.fields}
                    values={values}
                    onChange={(id, value) => {
                      setValues((v) => ({ ...v, [id]: value }));
                      setError(undefined);
                    }}
                  />
                </>
              )}
            </>
          )}
          {error && (
            <div className="inline-alert" role="alert">
              <strong>Not installed.</strong> {error.message}
            </div>
          )}
        </div>

        <footer className="modal__footer">
          {preview ? (
            <>
              <button
                type="button"
                className="btn"
                onClick={() => {
                  setPreview(undefined);
                  setError(undefined);
                }}
              >
                Back
              </button>
              <ConsentButton type="submit" className="btn btn--primary" ref={installRef} disabled={busy}>
                {busy && <Spinner />}
                Install and start
              </ConsentButton>
            </>
          ) : (
            <>
              <button type="button" className="btn" onClick={close}>
                Cancel
              </button>
              <button type="submit" className="btn btn--primary" disabled={busy || option === undefined}>
                {busy && <Spinner />}
                Review…
              </button>
            </>
          )}
        </footer>
      </form>
    </Modal>
  );
}
