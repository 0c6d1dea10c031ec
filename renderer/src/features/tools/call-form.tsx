import { useEffect, useId, useMemo, useRef } from 'react';
import type { ServerSnapshot, ToolInfo } from '../../../../shared/model/server.js';
import { argumentsSkeleton } from './schema-skeleton.js';
import type { ToolCallError, ToolCallState } from '../../store/app-state.js';
import { useActions } from '../../store/store-context.js';
import { Spinner } from '../../common/spinner.js';
import { CallProgress } from './call-progress.js';
import { useHostReachable } from '../../store/store-context.js';

const IS_MAC = /Mac|iPhone|iPad/.test(navigator.userAgent);

/** The arguments editor and the Call tool button; Ctrl/Cmd+Enter calls too. */
export function CallForm({
  server,
  tool,
  call,
}: {
  server: ServerSnapshot;
  tool: ToolInfo;
  call: ToolCallState;
}) {
  const id = useId();
  const { setToolArguments, callTool } = useActions();
  const skeleton = useMemo(() => argumentsSkeleton(tool.inputSchema), [tool.inputSchema]);
  const text = call.argumentsText ?? skeleton;
  const reachable = useHostReachable();
  // Callable only when the server is connected and the host can be reached at all.
  const connected = server.status === 'connected' && reachable;
  const button = useRef<HTMLButtonElement>(null);
  const wasRunning = useRef(call.running);

  // When a call ends (Cancel unmounts with it), focus returns to the Call button if it had nowhere to be.
  useEffect(() => {
    if (wasRunning.current && !call.running && document.activeElement === document.body) {
      button.current?.focus();
    }
    wasRunning.current = call.running;
  }, [call.running]);

  const run = () => {
    // callTool never rejects; its outcome is stored and rendered below.
    void callTool(server.name, tool.name, text);
  };

  return (
    <div className="call-form">
      <label htmlFor={id} className="field__label">
        Arguments (JSON)
      </label>
      <textarea
        id={id}
        className="field__control mono code-input"
        value={text}
        rows={Math.min(Math.max(text.split('\n').length + 1, 4), 16)}
        spellCheck={false}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          setToolArguments(server.name, tool.name, event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            if (connected) run();
          }
        }}
      />
      <div className="call-form__footer">
        <span id={`${id}-hint`} className="field__hint">
          {connected
            ? `${IS_MAC ? '⌘' : 'Ctrl'}+Enter to call`
            : reachable
              ? 'Connect the server to call its tools.'
              : 'The host is not reachable.'}
        </span>
        <button
          ref={button}
          type="button"
          className="btn btn--primary"
          disabled={call.running || !connected}
          aria-busy={call.running}
          onClick={run}
        >
          {call.running ? (
            <>
              <Spinner />
              Calling…
            </>
          ) : (
            'Call tool'
          )}
        </button>
      </div>
      {call.running && <CallProgress server={server.name} tool={tool.name} call={call} />}
      {call.error && <CallError error={call.error} />}
    </div>
  );
}

function CallError({ error }: { error: ToolCallError }) {
  if (error.kind === 'json') {
    return (
      <div className="inline-alert" role="alert">
        {error.message}
      </div>
    );
  }
  return (
    <div className="inline-alert" role="alert">
      {error.message}
      {error.code && <code className="inline-alert__code">{error.code}</code>}
    </div>
  );
}
