import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { LOG_LEVELS } from '../../../../shared/model/logs.js';
import type { LogEntry, LogLevel, LogSource } from '../../../../shared/model/logs.js';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { NO_FILTER, SOURCE_LABELS, filterLog, formatLines, formatTime } from './log-filter.js';
import type { LogFilter } from './log-filter.js';
import { useLogs } from './logs-context.js';
import { useAppState } from '../../store/store-context.js';
import { LogLevelPicker } from './log-level-picker.js';
import { copyText } from './copy-text.js';

/** Lines drawn at once; older matching lines stay in the buffer (and are copied). */
const SHOWN = 1000;

const isLevel = (value: string): value is LogLevel => (LOG_LEVELS as readonly string[]).includes(value);
const isSource = (value: string): value is LogSource => value in SOURCE_LABELS;

/**
 * A server's log: stderr lines, its notifications/message (with level and
 * logger) and the host's lifecycle events, live. Filter by level and
 * source, search, copy what is shown; set the server's own log level.
 */
export function LogView({ server }: { server: ServerSnapshot }) {
  const id = useId();
  const view = useLogs((s) => s.logs[server.name]);
  const { load } = useLogs((s) => s.actions);
  const connection = useAppState((s) => s.connection);
  const [filter, setFilter] = useState<LogFilter>(NO_FILTER);
  const [copied, setCopied] = useState<string>();
  const listRef = useRef<HTMLOListElement>(null);
  const atBottom = useRef(true);

  useEffect(() => {
    if (connection === 'connected') void load(server.name);
  }, [server.name, load, connection]);

  const entries = view?.entries;
  const matching = useMemo(() => filterLog(entries ?? [], filter), [entries, filter]);
  const shown = matching.length > SHOWN ? matching.slice(-SHOWN) : matching;

  // Follow new lines while the person is at the bottom; leave them alone when they scrolled up.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list && atBottom.current) list.scrollTop = list.scrollHeight;
  }, [shown]);

  const copy = async () => {
    const ok = await copyText(formatLines(matching));
    setCopied(
      ok ? `Copied ${String(matching.length)} ${matching.length === 1 ? 'line' : 'lines'}` : 'Copy failed',
    );
  };

  const filtered =
    filter.minLevel !== undefined || filter.source !== undefined || filter.search.trim() !== '';

  return (
    <section className="logs" aria-label="Logs">
      <LogLevelPicker server={server} level={view?.level} />
      <div className="logs__toolbar">
        <div className="logs__control">
          <label htmlFor={`${id}-level`} className="field__label">
            Show
          </label>
          <select
            id={`${id}-level`}
            className="field__control"
            value={filter.minLevel ?? ''}
            onChange={(event) => {
              const value = event.target.value;
              setFilter((f) => ({ ...f, minLevel: isLevel(value) ? value : undefined }));
            }}
          >
            <option value="">All levels</option>
            {LOG_LEVELS.map((level) => (
              <option key={level} value={level}>
                {level === 'emergency' ? 'emergency' : `${level} and above`}
              </option>
            ))}
          </select>
        </div>
        <div className="logs__control">
          <label htmlFor={`${id}-source`} className="field__label">
            From
          </label>
          <select
            id={`${id}-source`}
            className="field__control"
            value={filter.source ?? ''}
            onChange={(event) => {
              const value = event.target.value;
              setFilter((f) => ({ ...f, source: isSource(value) ? value : undefined }));
            }}
          >
            <option value="">Everything</option>
            <option value="server">Server messages</option>
            <option value="stderr">stderr</option>
            <option value="host">Lifecycle</option>
          </select>
        </div>
        <input
          type="search"
          className="field__control logs__search"
          aria-label="Search logs"
          placeholder="Search"
          value={filter.search}
          onChange={(event) => {
            const search = event.target.value;
            setFilter((f) => ({ ...f, search }));
          }}
        />
        <button
          type="button"
          className="btn"
          disabled={matching.length === 0}
          onClick={() => {
            void copy();
          }}
        >
          Copy
        </button>
        <span className="logs__copied" role="status">
          {copied}
        </span>
      </div>

      {view?.error && (
        <div className="inline-alert" role="alert">
          {view.error.message}
        </div>
      )}
      {view?.loaded !== true && !view?.error && <p className="muted logs__empty">Loading the log…</p>}
      {view?.loaded === true && matching.length === 0 && (
        <p className="muted logs__empty">
          {(entries?.length ?? 0) === 0
            ? 'Nothing logged yet. Lines appear here as the server starts, writes to stderr or sends log messages.'
            : 'No line matches these filters.'}
        </p>
      )}
      {(view?.skipped ?? 0) > 0 && (
        <p className="muted logs__note">
          The server wrote faster than this view follows: {(view?.skipped ?? 0).toLocaleString()}{' '}
          {view?.skipped === 1 ? 'line was' : 'lines were'} left out here (the host keeps them).{' '}
          <button
            type="button"
            className="btn"
            onClick={() => {
              void load(server.name);
            }}
          >
            Load the full log
          </button>
        </p>
      )}
      {matching.length > SHOWN && (
        <p className="muted logs__note">
          Showing the last {SHOWN.toLocaleString()} of {matching.length.toLocaleString()} matching lines; Copy
          takes all of them.
        </p>
      )}
      {shown.length > 0 && (
        <ol
          ref={listRef}
          className="log-list"
          aria-label={filtered ? 'Log lines (filtered)' : 'Log lines'}
          tabIndex={0}
          onScroll={(event) => {
            const list = event.currentTarget;
            atBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
          }}
        >
          {shown.map((entry) => (
            <LogLine key={entry.seq} entry={entry} />
          ))}
        </ol>
      )}
    </section>
  );
}

function LogLine({ entry }: { entry: LogEntry }) {
  return (
    <li className={`log-line log-line--${entry.level} log-line--${entry.source}`}>
      <time className="log-line__time" dateTime={new Date(entry.time).toISOString()}>
        {formatTime(entry.time)}
      </time>
      <span className="log-line__level">{entry.level}</span>
      <span className="log-line__source">{SOURCE_LABELS[entry.source]}</span>
      <span className="log-line__text">
        {entry.logger !== undefined && <span className="log-line__logger">[{entry.logger}] </span>}
        {entry.text}
      </span>
    </li>
  );
}
