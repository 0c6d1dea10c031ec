import type { InstallOption, InstallPreview } from '../../../../shared/model/registry.js';
import { commandLineText } from '../../../../shared/text/command-line.js';
import { ServerText } from '../common/server-text.js';
import { SecretStorageNote } from '../../lib/secret-storage.js';

/** Before values: what the option runs, `<name>` where a value will go. */
export function TemplateView({ option }: { option: InstallOption }) {
  const template = option.template;
  return (
    <div className="launch-view">
      {option.runtime?.note !== undefined && (
        <p className={option.runtime.found ? 'muted' : 'install-dialog__warning'} role="note">
          {option.runtime.note}
        </p>
      )}
      {template?.kind === 'stdio' && (
        <>
          <p className="field__label">Runs</p>
          <pre className="launch-view__command mono">
            <ServerText text={commandLineText(template.command, template.args)} />
          </pre>
          {template.envNames.length > 0 && (
            <p className="muted">
              Environment: <span className="mono">{template.envNames.join(', ')}</span>
            </p>
          )}
        </>
      )}
      {template?.kind === 'remote' && (
        <>
          <p className="field__label">Connects to ({transportLabel(template.transport)})</p>
          <pre className="launch-view__command mono">
            <ServerText text={template.url} />
          </pre>
          {template.headerNames.length > 0 && (
            <p className="muted">
              Headers: <span className="mono">{template.headerNames.join(', ')}</span>
            </p>
          )}
          <p className="muted">If the server asks for a sign-in, the server view offers Sign in.</p>
        </>
      )}
    </div>
  );
}

/** After values: exactly what will be written and run (secrets masked). */
export function LaunchView({ preview }: { preview: InstallPreview }) {
  const launch = preview.launch;
  return (
    <dl className="launch-view launch-view--final">
      {launch.kind === 'stdio' ? (
        <>
          <dt>Command</dt>
          <dd>
            <pre className="launch-view__command mono" data-testid="install-command">
              <ServerText text={commandLineText(launch.command, launch.args)} />
            </pre>
          </dd>
          <dt>Environment variables</dt>
          <dd className="mono">{launch.envNames.length > 0 ? launch.envNames.join(', ') : 'none'}</dd>
        </>
      ) : (
        <>
          <dt>URL ({transportLabel(launch.transport)})</dt>
          <dd>
            <pre className="launch-view__command mono" data-testid="install-command">
              <ServerText text={launch.url} />
            </pre>
          </dd>
          <dt>Headers sent with every request</dt>
          <dd className="mono">{launch.headerNames.length > 0 ? launch.headerNames.join(', ') : 'none'}</dd>
        </>
      )}
      {preview.secrets.length > 0 && (
        <>
          <dt>Secret values, kept apart from the configuration file</dt>
          <dd>
            <span className="mono">{preview.secrets.join(', ')}</span>
            <SecretStorageNote className="muted" />
          </dd>
        </>
      )}
      {preview.runtime?.note !== undefined && (
        <>
          <dt>Runtime</dt>
          <dd>{preview.runtime.note}</dd>
        </>
      )}
    </dl>
  );
}

function transportLabel(transport: 'streamable-http' | 'sse'): string {
  return transport === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP';
}
