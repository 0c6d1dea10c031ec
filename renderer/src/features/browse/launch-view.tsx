import type { InstallOption, InstallPreview, NamedValue } from '../../../../shared/model/registry.js';
import { commandLineText } from '../../../../shared/text/command-line.js';
import { ServerText } from '../../common/server-text.js';
import { SecretStorageNote } from '../../common/secret-storage.js';

/** Before values: what the option runs, `<name>` where a value will go. */
export function TemplateView({ option }: { option: InstallOption }) {
  const template = option.template;
  return (
    <div className="launch-view">
      {(option.warnings ?? []).map((warning) => (
        <p key={warning} className="install-dialog__warning" role="note">
          <ServerText text={warning} />
        </p>
      ))}
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
          <NamedValues title="Environment" entries={template.env} />
        </>
      )}
      {template?.kind === 'remote' && (
        <>
          <p className="field__label">Connects to ({transportLabel(template.transport)})</p>
          <pre className="launch-view__command mono">
            <ServerText text={template.url} />
          </pre>
          <NamedValues title="Headers" entries={template.headers} separator=": " />
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
          <dd className="mono">
            <ValueList entries={launch.env} label="Environment variables" />
          </dd>
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
          <dd className="mono">
            <ValueList entries={launch.headers} label="Headers" separator=": " />
          </dd>
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

/** Each variable or header with the value it gets: an outsider's value is read, not only its name. */
function NamedValues({
  title,
  entries,
  separator = '=',
}: {
  title: string;
  entries: readonly NamedValue[];
  separator?: string;
}) {
  if (entries.length === 0) return null;
  return (
    <>
      <p className="field__label">{title}</p>
      <ValueList entries={entries} label={title} separator={separator} />
    </>
  );
}

function ValueList({
  entries,
  label,
  separator = '=',
}: {
  entries: readonly NamedValue[];
  label: string;
  separator?: string;
}) {
  if (entries.length === 0) return <>none</>;
  return (
    <ul className="launch-view__values mono" aria-label={label}>
      {entries.map((entry) => (
        <li key={entry.name}>
          <ServerText text={`${entry.name}${separator}${entry.value}`} />
        </li>
      ))}
    </ul>
  );
}

function transportLabel(transport: 'streamable-http' | 'sse'): string {
  return transport === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP';
}
