import { useEffect, useId, useRef, useState } from 'react';
import type { BundlePreview } from '../../../../shared/model/bundle.js';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import { uploadBundle } from './bundle-upload.js';
import { formValues, initialForm } from './bundle-form.js';
import type { BundleForm } from './bundle-form.js';
import type { BundleRequest } from './bundle-install.js';
import { useHost } from '../../store/area-context.js';
import { useActions } from '../../store/store-context.js';
import { useChatActions } from '../chat/chat-context.js';
import { Modal } from '../../common/modal.js';
import { ServerText } from '../../common/server-text.js';
import { Spinner } from '../../common/spinner.js';
import { BundleSettingsForm } from './bundle-settings-form.js';
import { BundleSignatureNote } from './bundle-signature-note.js';
import { BundleSummary } from './bundle-summary.js';
import { ConsentButton } from '../consent/consent-guard.js';

type Step =
  | { kind: 'opening'; progress: number }
  | { kind: 'failed'; error: HostErrorValue }
  | { kind: 'preview'; preview: BundlePreview };

/**
 * Install a server from an MCP bundle: the file goes to the host (uploaded,
 * or picked in the host's own dialog), which shows what it is, who signed
 * it, what it runs and may do, and asks for its settings. Installing ends in
 * the host's launch confirmation; nothing runs before it.
 */
export function BundleInstallDialog({ request, onClose }: { request: BundleRequest; onClose: () => void }) {
  const headingId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const host = useHost();
  const { selectServer } = useActions();
  const { setView } = useChatActions();
  const [step, setStep] = useState<Step>({ kind: 'opening', progress: 0 });
  const [form, setForm] = useState<BundleForm>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [installError, setInstallError] = useState<HostErrorValue>();
  const [busy, setBusy] = useState(false);
  const token = useRef<string>(undefined);

  useEffect(() => {
    let live = true;
    const open =
      request.kind === 'file'
        ? uploadBundle(host, request.file, (progress) => {
            if (live) setStep({ kind: 'opening', progress });
          })
        : host.previewBundle({ source: { kind: 'pick' } });
    void open.then((result) => {
      if (!live) {
        if (result.ok && result.value) void host.discardBundle({ token: result.value.token });
        return;
      }
      if (!result.ok) setStep({ kind: 'failed', error: result.error });
      else if (result.value === null) onClose();
      else {
        token.current = result.value.token;
        setForm(initialForm(result.value.fields));
        setStep({ kind: 'preview', preview: result.value });
      }
    });
    return () => {
      live = false;
    };
  }, [host, request, onClose]);

  const cancel = () => {
    // The host keeps the opened bundle until it is installed or let go.
    if (token.current !== undefined) void host.discardBundle({ token: token.current });
    onClose();
  };

  const preview = step.kind === 'preview' ? step.preview : undefined;
  const install = async () => {
    if (!preview) return;
    const outcome = formValues(preview.fields, form);
    setErrors(outcome.errors);
    if (Object.keys(outcome.errors).length > 0) return;
    setBusy(true);
    setInstallError(undefined);
    const result = await host.installBundle({ token: preview.token, values: outcome.values });
    setBusy(false);
    if (!result.ok) {
      setInstallError(result.error);
      return;
    }
    token.current = undefined;
    setView('servers');
    selectServer(result.value.name);
    onClose();
  };

  const blocked = preview !== undefined && preview.blockers.length > 0;
  const title = preview
    ? blocked
      ? `“${preview.displayName}” cannot be installed`
      : `${actionOf(preview)} “${preview.displayName}”?`
    : 'Install from bundle';
  // The signature note already says why an invalid signature blocks.
  const otherBlockers = preview?.blockers.filter((b) => !b.startsWith('The signature is invalid')) ?? [];

  return (
    <Modal
      labelledBy={headingId}
      onClose={cancel}
      initialFocus={closeRef}
      className="modal--wide"
      closeOnBackdrop={false}
      consent
    >
      <div className="modal__content">
        <header className="modal__header">
          <h2 id={headingId}>
            <ServerText text={title} />
          </h2>
          <p className="modal__subtitle">
            {preview ? (
              <>
                Version <ServerText text={preview.version} /> by <ServerText text={preview.author.name} /> ·{' '}
                <span className="mono">
                  <ServerText text={preview.fileName} />
                </span>{' '}
                · server name <span className="mono">{preview.serverName}</span>
              </>
            ) : request.kind === 'file' ? (
              <>
                {step.kind === 'opening' ? 'Opening ' : ''}
                <span className="mono">{request.file.name}</span>
              </>
            ) : (
              'Choose a .mcpb file'
            )}
          </p>
        </header>
        {/* Focusable: the details can be long, and a keyboard must be able to scroll them. */}
        <div className="modal__body bundle-dialog" tabIndex={0} role="region" aria-label="About this bundle">
          {step.kind === 'opening' && (
            <p className="muted" role="status">
              <Spinner /> Checking the bundle
              {request.kind === 'file' && step.progress < 1
                ? ` (${String(Math.round(step.progress * 100))}% sent)`
                : ''}
              …
            </p>
          )}
          {step.kind === 'failed' && (
            <div className="inline-alert" role="alert">
              {step.error.message}
            </div>
          )}
          {preview && (
            <>
              <BundleSignatureNote signature={preview.signature} />
              {preview.installed && (
                <p className={`bundle-update bundle-update--${preview.installed.relation}`}>
                  {updateNote(preview)}
                </p>
              )}
              {otherBlockers.length > 0 && (
                <div className="inline-alert" role="alert">
                  <ul className="bundle-blockers" aria-label="Why it cannot be installed">
                    {otherBlockers.map((blocker) => (
                      <li key={blocker}>
                        <ServerText text={blocker} />
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              <BundleSummary preview={preview} />
              {!blocked && (
                <BundleSettingsForm
                  token={preview.token}
                  fields={preview.fields}
                  form={form}
                  errors={errors}
                  onChange={(key, value) => {
                    setForm((current) => ({ ...current, [key]: value }));
                    setErrors(({ [key]: _fixed, ...others }) => others);
                  }}
                />
              )}
              {installError && (
                <div className="inline-alert" role="alert">
                  {installError.message}
                </div>
              )}
            </>
          )}
        </div>
        <footer className="modal__footer">
          <button ref={closeRef} type="button" className="btn" onClick={cancel}>
            {preview && !blocked ? 'Cancel' : 'Close'}
          </button>
          {preview && !blocked && (
            <ConsentButton
              type="button"
              className="btn btn--primary"
              disabled={busy}
              onClick={() => {
                void install();
              }}
            >
              {busy && <Spinner />}
              {preview.installed ? actionOf(preview) : 'Install'}
            </ConsentButton>
          )}
        </footer>
      </div>
    </Modal>
  );
}

function actionOf(preview: BundlePreview): string {
  const relation = preview.installed?.relation;
  return relation === 'upgrade'
    ? 'Update'
    : relation === 'same'
      ? 'Reinstall'
      : relation === 'downgrade'
        ? 'Downgrade'
        : 'Install';
}

function updateNote(preview: BundlePreview): string {
  const installed = preview.installed;
  if (!installed) return '';
  if (installed.relation === 'upgrade')
    return `Updates the installed version ${installed.version} to ${preview.version}. Your settings are kept; only new settings are asked for.`;
  if (installed.relation === 'same')
    return `Version ${installed.version} is already installed. Installing again replaces its files and keeps your settings.`;
  return `This is an older version than the installed ${installed.version}. Installing it goes back to ${preview.version}; your settings are kept.`;
}
