import { useId, useMemo, useState } from 'react';
import type { ConversationSummary } from '../../../../shared/model/chat.js';
import type {
  ConversationSettings,
  Effort,
  ThinkingMode,
} from '../../../../shared/model/conversation-settings.js';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { useChat, useChatActions } from './chat-context.js';
import { useAppState } from '../../store/store-context.js';
import { Modal } from '../../common/modal.js';
import { Spinner } from '../../common/spinner.js';

/** Tools listed per server before the filter is needed (a server may have up to 1,000). */
const TOOLS_SHOWN = 100;

const THINKING_LABEL: Record<ThinkingMode, string> = {
  default: 'Model default',
  adaptive: 'Adaptive (Claude decides how much)',
  off: 'Off',
};
const EFFORTS: readonly Effort[] = ['low', 'medium', 'high', 'xhigh', 'max'];

/**
 * This conversation's own settings: its model, its instructions for Claude,
 * thinking and effort, and which servers and tools it offers. Saved together;
 * a refusal stays in the dialog as one line, with nothing lost.
 */
export function ConversationSettingsDialog({
  summary,
  onClose,
}: {
  summary: ConversationSummary;
  onClose: () => void;
}) {
  const titleId = useId();
  const ids = { model: useId(), prompt: useId(), thinking: useId(), effort: useId(), filter: useId() };
  const appModel = useChat((s) => s.settings?.model);
  const models = useChat((s) => s.models?.models);
  const servers = useAppState((s) => s.servers);
  const { setConversationSettings } = useChatActions();
  const start = summary.settings ?? {};
  const [model, setModel] = useState(start.model ?? '');
  const [prompt, setPrompt] = useState(start.systemPrompt ?? '');
  const [thinking, setThinking] = useState<ThinkingMode>(start.thinking ?? 'default');
  const [effort, setEffort] = useState<Effort | ''>(start.effort ?? '');
  const [offServers, setOffServers] = useState(() => new Set(start.inactiveServers ?? []));
  const [offTools, setOffTools] = useState(
    () => new Set((start.inactiveTools ?? []).map((t) => `${t.server}/${t.tool}`)),
  );
  const [skills, setSkills] = useState(start.skills !== false);
  const [filter, setFilter] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const list = useMemo(() => Object.values(servers).sort((a, b) => a.name.localeCompare(b.name)), [servers]);

  const save = () => {
    const settings: ConversationSettings = {
      ...(model !== '' ? { model } : {}),
      ...(prompt.trim() !== '' ? { systemPrompt: prompt } : {}),
      ...(thinking !== 'default' ? { thinking } : {}),
      ...(thinking === 'adaptive' && effort !== '' ? { effort } : {}),
      ...(offServers.size > 0 ? { inactiveServers: [...offServers] } : {}),
      ...(skills ? {} : { skills: false }),
      ...(offTools.size > 0
        ? {
            inactiveTools: [...offTools].map((key) => {
              const at = key.indexOf('/');
              return { server: key.slice(0, at), tool: key.slice(at + 1) };
            }),
          }
        : {}),
    };
    setBusy(true);
    setError(undefined);
    void setConversationSettings(summary.id, settings).then((result) => {
      setBusy(false);
      if (result.ok) onClose();
      else setError(result.error.message);
    });
  };

  const toggle = <T,>(set: Set<T>, value: T): Set<T> => {
    const next = new Set(set);
    if (next.has(value)) next.delete(value);
    else next.add(value);
    return next;
  };

  return (
    <Modal labelledBy={titleId} onClose={onClose} className="modal--wide">
      <form
        className="modal__content"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <header className="modal__header">
          <h2 id={titleId}>Settings of this conversation</h2>
          <p className="modal__subtitle">{summary.title || 'Untitled'}</p>
        </header>
        <div className="modal__body conv-settings">
          <div className="field">
            <label htmlFor={ids.model} className="field__label">
              Model
            </label>
            <select
              id={ids.model}
              className="field__control"
              value={model}
              onChange={(event) => {
                setModel(event.target.value);
              }}
            >
              <option value="">App default{appModel !== undefined ? ` (${appModel})` : ''}</option>
              {(models ?? []).map((m) => (
                <option key={m.id} value={m.id}>
                  {m.displayName} ({m.id})
                </option>
              ))}
              {model !== '' && !(models ?? []).some((m) => m.id === model) && (
                <option value={model}>{model}</option>
              )}
            </select>
          </div>
          <div className="field">
            <label htmlFor={ids.prompt} className="field__label">
              Instructions for Claude (system prompt)
            </label>
            <textarea
              id={ids.prompt}
              className="field__control conv-settings__prompt"
              rows={4}
              maxLength={20_000}
              placeholder="For example: Answer in French. Prefer the files server for anything on disk."
              value={prompt}
              onChange={(event) => {
                setPrompt(event.target.value);
              }}
            />
          </div>
          <div className="conv-settings__row">
            <div className="field">
              <label htmlFor={ids.thinking} className="field__label">
                Thinking
              </label>
              <select
                id={ids.thinking}
                className="field__control"
                value={thinking}
                onChange={(event) => {
                  setThinking(event.target.value as ThinkingMode);
                }}
              >
                {(Object.keys(THINKING_LABEL) as ThinkingMode[]).map((mode) => (
                  <option key={mode} value={mode}>
                    {THINKING_LABEL[mode]}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={ids.effort} className="field__label">
                Effort
              </label>
              <select
                id={ids.effort}
                className="field__control"
                value={effort}
                disabled={thinking !== 'adaptive'}
                onChange={(event) => {
                  setEffort(event.target.value as Effort | '');
                }}
              >
                <option value="">Model default</option>
                {EFFORTS.map((e) => (
                  <option key={e} value={e}>
                    {e}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <label className="conv-settings__check">
            <input
              type="checkbox"
              checked={skills}
              onChange={() => {
                setSkills((on) => !on);
              }}
            />
            <span>Offer the servers’ verified skills to Claude</span>
          </label>
          <fieldset className="conv-settings__servers">
            <legend className="field__label">Servers and tools this conversation offers Claude</legend>
            {list.length === 0 ? (
              <p className="muted">No servers are configured.</p>
            ) : (
              <>
                <input
                  id={ids.filter}
                  type="search"
                  className="field__control"
                  aria-label="Filter tools"
                  placeholder="Filter tools"
                  value={filter}
                  onChange={(event) => {
                    setFilter(event.target.value);
                  }}
                />
                <ul className="conv-settings__server-list">
                  {list.map((server) => (
                    <ServerTools
                      key={server.name}
                      server={server}
                      active={!offServers.has(server.name)}
                      offTools={offTools}
                      filter={filter}
                      onServer={() => {
                        setOffServers((set) => toggle(set, server.name));
                      }}
                      onTool={(tool) => {
                        setOffTools((set) => toggle(set, `${server.name}/${tool}`));
                      }}
                    />
                  ))}
                </ul>
              </>
            )}
          </fieldset>
          {error !== undefined && (
            <div className="inline-alert" role="alert">
              {error}
            </div>
          )}
        </div>
        <footer className="modal__footer">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy && <Spinner />}
            Save
          </button>
        </footer>
      </form>
    </Modal>
  );
}

function ServerTools(props: {
  server: ServerSnapshot;
  active: boolean;
  offTools: ReadonlySet<string>;
  filter: string;
  onServer: () => void;
  onTool: (tool: string) => void;
}) {
  const { server, active, offTools, filter, onServer, onTool } = props;
  const needle = filter.trim().toLowerCase();
  const matching =
    needle === '' ? server.tools : server.tools.filter((t) => t.name.toLowerCase().includes(needle));
  const shown = matching.slice(0, TOOLS_SHOWN);
  const on = server.tools.filter((t) => !offTools.has(`${server.name}/${t.name}`)).length;
  return (
    <li className="conv-settings__server">
      <details open={needle !== ''}>
        <summary>
          <label
            className="conv-settings__check"
            onClick={(event) => {
              event.stopPropagation();
            }}
          >
            <input
              type="checkbox"
              checked={active}
              onChange={onServer}
              aria-label={`Offer the tools of ${server.name}`}
            />
            <span className="conv-settings__name">{server.name}</span>
          </label>
          <span className="muted conv-settings__count">
            {server.status === 'connected'
              ? `${String(on)} of ${String(server.tools.length)} tools`
              : server.status}
          </span>
        </summary>
        <ul className="conv-settings__tools">
          {shown.map((tool) => (
            <li key={tool.name}>
              <label className="conv-settings__check">
                <input
                  type="checkbox"
                  disabled={!active}
                  checked={!offTools.has(`${server.name}/${tool.name}`)}
                  onChange={() => {
                    onTool(tool.name);
                  }}
                />
                <span className="mono">{tool.name}</span>
              </label>
            </li>
          ))}
          {matching.length > shown.length && (
            <li className="muted">{String(matching.length - shown.length)} more: filter to find them.</li>
          )}
        </ul>
      </details>
    </li>
  );
}
