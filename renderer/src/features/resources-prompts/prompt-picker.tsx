import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import type { PromptInfo } from '../../../../shared/model/server.js';
import type { PromptResult } from '../../../../shared/model/features.js';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import { firstLine } from '../../common/text.js';
import { useFeatureActions, useFeatures } from './features-context.js';
import { Spinner } from '../../common/spinner.js';
import { HostErrorLine } from '../../common/host-error-line.js';
import { PromptForm } from './lazy.js';
import { Deferred } from '../../common/on-demand.js';

interface Entry {
  readonly server: string;
  readonly prompt: PromptInfo;
  readonly completions: boolean;
}

/** Entries whose name, title or server contain the query; names starting with it first. */
export function filterPrompts(entries: readonly Entry[], query: string): Entry[] {
  const q = query.trim().toLowerCase();
  if (q === '') return [...entries];
  const hits = entries.filter((e) =>
    `${e.prompt.name} ${e.prompt.title ?? ''} ${e.server}`.toLowerCase().includes(q),
  );
  const starts = (e: Entry) => (e.prompt.name.toLowerCase().startsWith(q) ? 0 : 1);
  return hits.sort((a, b) => starts(a) - starts(b));
}

/**
 * The "/" picker of the chat composer: the prompts of every connected
 * server, filtered by what follows the "/". The composer mounts it while
 * its text starts with "/" and passes that text (without the "/") as
 * `query`; focus stays in the composer, and ↓/↑, Enter (or Tab) and Escape
 * are taken here. A prompt with arguments opens its form (with completions);
 * the result arrives through `onInsert` as messages to put into the
 * conversation.
 */
export function PromptPicker(props: {
  query: string;
  onInsert: (result: PromptResult) => void;
  onClose: () => void;
  /** id for the list of prompts, so the message box can point to it (aria-controls). */
  listId?: string;
}) {
  const { query, onInsert, onClose } = props;
  const id = useId();
  const listId = props.listId ?? `${id}-list`;
  const prompts = useFeatures((s) => s.prompts);
  const { loadPrompts, getPrompt } = useFeatureActions();
  const [active, setActive] = useState(0);
  const [chosen, setChosen] = useState<Entry>();
  const [fetching, setFetching] = useState(false);
  const [error, setError] = useState<HostErrorValue | undefined>();

  useEffect(() => {
    void loadPrompts();
  }, [loadPrompts]);

  const entries = useMemo(
    () =>
      filterPrompts(
        (prompts.value ?? []).flatMap((s) =>
          s.prompts.map((prompt) => ({ server: s.server, prompt, completions: s.completions })),
        ),
        query,
      ),
    [prompts.value, query],
  );
  const current = Math.min(active, Math.max(entries.length - 1, 0));

  const choose = useCallback(
    async (entry: Entry) => {
      if ((entry.prompt.arguments ?? []).length > 0) {
        setChosen(entry);
        return;
      }
      setFetching(true);
      const result = await getPrompt(entry.server, entry.prompt.name, {});
      setFetching(false);
      if (result.ok) onInsert(result.value);
      else setError(result.error);
    },
    [getPrompt, onInsert],
  );

  useEffect(() => {
    if (chosen) return;
    const onKey = (event: KeyboardEvent) => {
      const entry = entries[current];
      if (event.key === 'Escape') onClose();
      else if (event.key === 'ArrowDown' && entries.length > 0) setActive((current + 1) % entries.length);
      else if (event.key === 'ArrowUp' && entries.length > 0)
        setActive((current - 1 + entries.length) % entries.length);
      else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey && entry) {
        void choose(entry);
      } else return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
    };
  }, [chosen, entries, current, onClose, choose]);

  if (chosen) {
    return (
      <div
        className="prompt-picker card"
        role="dialog"
        aria-label={`Prompt ${chosen.prompt.name}`}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onClose();
          }
        }}
      >
        <div className="prompt-picker__head">
          <span className="mono">/{chosen.prompt.name}</span>
          <span className="muted">{chosen.server}</span>
        </div>
        {chosen.prompt.description !== undefined && (
          <p className="muted prompt-picker__desc">{chosen.prompt.description}</p>
        )}
        <Deferred fallback={<Spinner />}>
          <PromptForm
            server={chosen.server}
            prompt={chosen.prompt}
            canComplete={chosen.completions}
            submitLabel="Insert"
            autoFocus
            onResult={onInsert}
          />
        </Deferred>
      </div>
    );
  }

  return (
    <div className="prompt-picker card">
      <div className="prompt-picker__head">
        <span>Prompts</span>
        <span className="muted">↑↓ choose · Enter insert · Esc close</span>
      </div>
      {prompts.value === undefined && prompts.loading && (
        <p className="muted loading-line" role="status">
          <Spinner />
          Loading prompts…
        </p>
      )}
      {fetching && (
        <p className="muted loading-line" role="status">
          <Spinner />
          Getting the prompt…
        </p>
      )}
      {error && <HostErrorLine error={error} />}
      {prompts.error && <HostErrorLine error={prompts.error} />}
      {prompts.value !== undefined && entries.length === 0 && (
        <p className="muted prompt-picker__none">
          {query.trim() === '' ? 'No connected server offers prompts.' : `No prompt matches “${query}”.`}
        </p>
      )}
      <ul
        id={listId}
        role="listbox"
        aria-label="Prompts of all servers"
        className="prompt-picker__list"
        {...(entries[current] ? { 'aria-activedescendant': `${id}-${String(current)}` } : {})}
      >
        {entries.map((entry, index) => (
          <li
            key={`${entry.server}\n${entry.prompt.name}`}
            id={`${id}-${String(index)}`}
            role="option"
            aria-selected={index === current}
            className="prompt-picker__option"
            onMouseDown={(event) => {
              event.preventDefault();
              void choose(entry);
            }}
            onMouseEnter={() => {
              setActive(index);
            }}
          >
            <span className="mono prompt-picker__name">/{entry.prompt.name}</span>
            <span className="prompt-picker__summary">
              {entry.prompt.title ?? firstLine(entry.prompt.description)}
            </span>
            <span className="prompt-picker__server">{entry.server}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
