import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import type { PendingInstall, RegistryEntry } from '../../../../shared/model/registry.js';
import { useHost } from '../../store/area-context.js';
import { useChat } from '../chat/chat-context.js';
import { Deferred } from '../../common/on-demand.js';
import { InstallDialog } from './lazy-parts.js';
import { Spinner } from '../../common/spinner.js';
import { RegistryEntryItem } from './registry-entry-item.js';
import { useInstalled } from './use-installed.js';

/** How long typing may pause before the registry is asked. */
const DEBOUNCE_MS = 300;

interface Results {
  query: string;
  entries: readonly RegistryEntry[];
  nextCursor: string | undefined;
  skipped: number;
}

/**
 * Browse: search the MCP registry (the one set in Settings), page through
 * its latest entries, and open one to install it. The host asks the
 * registry and checks what it answers; an unreachable registry is one line
 * with Retry.
 */
export function BrowseView() {
  const host = useHost();
  const registryUrl = useChat((s) => s.settings?.registryUrl);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Results>();
  const [loading, setLoading] = useState<'search' | 'more'>();
  /** The registry's failure, with the request to make again on Retry. */
  const [error, setError] = useState<{ error: HostErrorValue; text: string; cursor: string | undefined }>();
  const [opening, setOpening] = useState<string>();
  const [openError, setOpenError] = useState<HostErrorValue>();
  const [pending, setPending] = useState<PendingInstall>();
  const onInstalled = useInstalled();
  /** Answers to an older search are dropped. */
  const generation = useRef(0);
  const searchId = useId();

  const search = useCallback(
    async (text: string, cursor?: string) => {
      const mine = ++generation.current;
      setLoading(cursor === undefined ? 'search' : 'more');
      setError(undefined);
      const result = await host.searchRegistry({ query: text, ...(cursor !== undefined ? { cursor } : {}) });
      if (mine !== generation.current) return;
      setLoading(undefined);
      if (!result.ok) {
        setError({ error: result.error, text, cursor });
        if (cursor === undefined) setResults(undefined);
        return;
      }
      const page = result.value;
      setResults((previous) => ({
        query: text,
        entries: cursor !== undefined && previous ? [...previous.entries, ...page.entries] : page.entries,
        nextCursor: page.nextCursor,
        skipped: (cursor !== undefined && previous ? previous.skipped : 0) + page.skipped,
      }));
    },
    [host],
  );

  // Search as the person types (debounced), and again when the registry setting changes.
  useEffect(() => {
    const timer = setTimeout(() => void search(query.trim()), query === '' ? 0 : DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [query, search, registryUrl]);

  const open = async (entry: RegistryEntry) => {
    setOpening(entry.name);
    setOpenError(undefined);
    const result = await host.prepareRegistryInstall({ name: entry.name, version: entry.version });
    setOpening(undefined);
    if (result.ok) setPending(result.value);
    else setOpenError(result.error);
  };

  return (
    <main className="browse" aria-labelledby={`${searchId}-title`}>
      <div className="browse__inner">
        <header className="browse__header">
          <h1 id={`${searchId}-title`} className="browse__title">
            Browse the MCP registry
          </h1>
          {registryUrl !== undefined && (
            <p className="muted browse__source">
              Servers from <span className="mono">{registryUrl}</span> (change it in Settings).
            </p>
          )}
        </header>
        <form
          role="search"
          className="browse__search"
          onSubmit={(event) => {
            event.preventDefault();
            void search(query.trim());
          }}
        >
          <label htmlFor={searchId} className="visually-hidden">
            Search the registry
          </label>
          <input
            id={searchId}
            type="search"
            // The view is for searching: the box has the focus when it opens.
            autoFocus
            className="field__control"
            placeholder="Search by name, e.g. filesystem"
            autoComplete="off"
            spellCheck={false}
            value={query}
            maxLength={200}
            onChange={(event) => {
              setQuery(event.target.value);
            }}
          />
        </form>

        {error && (
          <div className="inline-alert browse__error" role="alert">
            <span>{error.error.message}</span>
            <button type="button" className="btn" onClick={() => void search(error.text, error.cursor)}>
              Retry
            </button>
          </div>
        )}
        {openError && (
          <div className="inline-alert" role="alert">
            <strong>The entry could not be opened.</strong> {openError.message}
          </div>
        )}
        {loading === 'search' && (
          <p className="muted" role="status">
            <Spinner /> Searching…
          </p>
        )}
        {results && results.entries.length === 0 && loading === undefined && (
          <p className="muted" role="status">
            {results.query === '' ? 'The registry lists no servers.' : `No servers match “${results.query}”.`}
          </p>
        )}
        {results && results.entries.length > 0 && (
          <ul className="browse__list" aria-label="Registry entries" aria-busy={loading !== undefined}>
            {results.entries.map((entry) => (
              <RegistryEntryItem
                key={`${entry.name}@${entry.version}`}
                entry={entry}
                opening={opening === entry.name}
                onOpen={() => void open(entry)}
              />
            ))}
          </ul>
        )}
        {results !== undefined && results.skipped > 0 && (
          <p className="muted">
            {results.skipped === 1
              ? '1 entry could not be read and is not shown.'
              : `${String(results.skipped)} entries could not be read and are not shown.`}
          </p>
        )}
        {results?.nextCursor !== undefined && (
          <button
            type="button"
            className="btn browse__more"
            disabled={loading !== undefined}
            onClick={() => void search(results.query, results.nextCursor)}
          >
            {loading === 'more' && <Spinner />}
            Load more
          </button>
        )}
      </div>
      {pending && (
        <Deferred>
          <InstallDialog
            pending={pending}
            onClose={() => {
              setPending(undefined);
            }}
            onInstalled={onInstalled}
          />
        </Deferred>
      )}
    </main>
  );
}
