import { useId, useState } from 'react';
import type { SyntheticEvent } from 'react';
import type { SandboxListKey, SandboxPolicySummary } from '../../../../shared/model/sandbox.js';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { useHost } from '../../store/area-context.js';
import { Spinner } from '../../common/spinner.js';
import { addToList, removeFromList } from './sandbox-list-edit.js';

interface ListSpec {
  key: SandboxListKey;
  title: string;
  hint: string;
  placeholder: string;
  /** What the server may do now, read-only, from the effective policy. */
  effective: (policy: SandboxPolicySummary) => string;
}

const joined = (items: readonly string[]): string => (items.length > 0 ? items.join(', ') : 'nothing');

const LISTS: readonly ListSpec[] = [
  {
    key: 'allowRead',
    title: 'May also read',
    hint: 'Folders or files it may read although the sandbox hides them (your secrets, this app’s data).',
    placeholder: '~/.config/my-tool',
    effective: (policy) =>
      `your files read-only, except ${joined(policy.denyRead)}${
        policy.allowRead.length > 0 ? `; also ${joined(policy.allowRead)}` : ''
      }`,
  },
  {
    key: 'allowWrite',
    title: 'May also write',
    hint: 'Folders it may change, besides its own state folder and its roots.',
    placeholder: '~/projects/notes',
    effective: (policy) => joined(policy.write),
  },
  {
    key: 'allowHosts',
    title: 'May connect to',
    hint: 'Hosts it may reach, like api.example.com or *.example.com (a port may follow: db.local:5432).',
    placeholder: 'api.example.com',
    effective: (policy) =>
      policy.network.mode === 'none'
        ? 'no network'
        : `${joined(policy.network.hosts)}${policy.network.reason !== undefined ? ` (${policy.network.reason})` : ''}`,
  },
];

/**
 * The folders and hosts a local server's sandbox grants beyond the default
 * policy, one editable list each, with what is in effect now beside it.
 * Each change is checked with the config file's schema before it is sent
 * (the host checks again) and restarts a running server.
 */
export function SandboxLists({ server }: { server: ServerSnapshot }) {
  if (server.transport !== 'stdio') return null;
  return (
    <section className="sandbox-lists" aria-label="Sandbox folders and hosts">
      {LISTS.map((spec) => (
        <SandboxList key={spec.key} server={server} spec={spec} />
      ))}
    </section>
  );
}

function SandboxList({ server, spec }: { server: ServerSnapshot; spec: ListSpec }) {
  const id = useId();
  const host = useHost();
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const settings = server.sandboxSettings;
  const entries = settings?.[spec.key] ?? [];

  const save = async (list: string[]): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    const result = await host.setServerSandboxed({ name: server.name, [spec.key]: list });
    setBusy(false);
    if (!result.ok) setError(result.error.message);
    return result.ok;
  };

  const add = async (event: SyntheticEvent) => {
    event.preventDefault();
    const edit = addToList(settings, spec.key, draft);
    if (!edit.ok) {
      setError(edit.problem);
      return;
    }
    // Typed on while it was saved: keep what is there now.
    if (await save(edit.list)) setDraft((current) => (current === draft ? '' : current));
  };

  return (
    <div className="server-settings__row sandbox-list">
      <div className="sandbox-list__head">
        <p className="server-settings__title" id={`${id}-title`}>
          {spec.title}
        </p>
        <p className="muted server-settings__hint" id={`${id}-hint`}>
          {spec.hint}
        </p>
      </div>
      {entries.length > 0 ? (
        <ul className="sandbox-list__entries" aria-labelledby={`${id}-title`}>
          {entries.map((entry) => (
            <li key={entry} className="sandbox-list__entry">
              <span className="mono">{entry}</span>
              <button
                type="button"
                className="btn btn--danger-quiet"
                aria-label={`Remove ${entry} from ${spec.title}`}
                disabled={busy}
                onClick={() => {
                  void save(removeFromList(settings, spec.key, entry));
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted sandbox-list__none">None added.</p>
      )}
      <form
        className="sandbox-list__add"
        onSubmit={(event) => {
          void add(event);
        }}
      >
        <input
          className="field__control mono"
          value={draft}
          placeholder={spec.placeholder}
          spellCheck={false}
          autoComplete="off"
          aria-label={`Add to ${spec.title}`}
          aria-describedby={`${id}-hint${error !== undefined ? ` ${id}-error` : ''}`}
          aria-invalid={error !== undefined ? true : undefined}
          onChange={(event) => {
            setDraft(event.target.value);
            setError(undefined);
          }}
        />
        <button type="submit" className="btn" disabled={busy}>
          Add
        </button>
        {busy && <Spinner />}
      </form>
      {error !== undefined && (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      <p className="muted sandbox-list__effective">
        <span className="sandbox-list__effective-label">In effect:</span>{' '}
        {server.sandbox?.state === 'on' && server.sandbox.policy !== undefined ? (
          <span className="mono">{spec.effective(server.sandbox.policy)}</span>
        ) : server.sandbox?.state === 'off' ? (
          'not sandboxed: everything you can'
        ) : (
          'shown once the server has started'
        )}
      </p>
    </div>
  );
}
