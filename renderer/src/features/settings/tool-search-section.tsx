import { useId, useState } from 'react';
import type { ToolSearchMode } from '../../../../shared/model/settings.js';
import { useChat, useChatActions } from '../chat/chat-context.js';

const MODES: { mode: ToolSearchMode; label: string; hint: string }[] = [
  { mode: 'auto', label: 'Automatic', hint: 'On once the tools offered pass either threshold below.' },
  { mode: 'always', label: 'Always', hint: 'Claude always searches for the tools it needs.' },
  { mode: 'off', label: 'Off', hint: 'Every tool definition goes with every request.' },
];

/**
 * Tool search: with many tools, their definitions are not sent up front;
 * Claude searches for the ones it needs. When it turns on, and the tools
 * that stay loaded whatever happens (pinned in a server's Tools tab).
 */
export function ToolSearchSection() {
  const settings = useChat((s) => s.settings);
  const { saveSettings } = useChatActions();
  const headingId = useId();
  const toolsId = useId();
  const tokensId = useId();
  const [draft, setDraft] = useState<{ minTools?: string; minTokens?: string }>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  const current = settings?.toolSearch;
  if (!current) return null;
  const minTools = draft.minTools ?? String(current.minTools);
  const minTokens = draft.minTokens ?? String(current.minTokens);

  const save = (patch: Parameters<typeof saveSettings>[0], what: string) => {
    setMessage(undefined);
    void saveSettings(patch).then((result) => {
      setMessage(result.ok ? { ok: true, text: what } : { ok: false, text: result.error.message });
      if (result.ok) setDraft({});
    });
  };

  return (
    <section className="card settings-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Tool search</h2>
      <p className="muted">
        With many tools, sending every definition with every request fills Claude’s context. Tool search sends
        them deferred: Claude searches and loads only the ones it needs. Pinned tools (pin them in a server’s
        Tools tab) are always loaded; {String(settings.pinnedTools.length)} pinned now.
      </p>
      <fieldset className="tool-search-modes">
        <legend className="field__label">When</legend>
        {MODES.map(({ mode, label, hint }) => (
          <label key={mode} className="conv-settings__check">
            <input
              type="radio"
              name="tool-search-mode"
              checked={current.mode === mode}
              onChange={() => {
                save({ toolSearch: { mode } }, `Tool search: ${label.toLowerCase()}.`);
              }}
            />
            {label} <span className="muted">— {hint}</span>
          </label>
        ))}
      </fieldset>
      <form
        className="tool-search-thresholds"
        onSubmit={(event) => {
          event.preventDefault();
          const tools = Number(minTools);
          const tokens = Number(minTokens);
          if (!Number.isInteger(tools) || tools < 1 || !Number.isInteger(tokens) || tokens < 100) {
            setMessage({ ok: false, text: 'Use whole numbers: at least 1 tool and 100 tokens.' });
            return;
          }
          save({ toolSearch: { minTools: tools, minTokens: tokens } }, 'Thresholds saved.');
        }}
      >
        <label htmlFor={toolsId} className="field__label">
          From this many tools
        </label>
        <input
          id={toolsId}
          type="number"
          min={1}
          className="field__control"
          value={minTools}
          disabled={current.mode !== 'auto'}
          onChange={(event) => {
            setDraft((d) => ({ ...d, minTools: event.target.value }));
          }}
        />
        <label htmlFor={tokensId} className="field__label">
          or this many tokens of definitions
        </label>
        <input
          id={tokensId}
          type="number"
          min={100}
          step={1000}
          className="field__control"
          value={minTokens}
          disabled={current.mode !== 'auto'}
          onChange={(event) => {
            setDraft((d) => ({ ...d, minTokens: event.target.value }));
          }}
        />
        <button type="submit" className="btn" disabled={current.mode !== 'auto'}>
          Save thresholds
        </button>
      </form>
      {message && (
        <p className={message.ok ? 'muted' : 'field__error'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </p>
      )}
    </section>
  );
}
