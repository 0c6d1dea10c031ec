import { useEffect, useRef, useState } from 'react';
import type { ToolCallState } from '../../store/app-state.js';
import { progressFraction } from '../../store/tool-call-progress.js';
import { useActions } from '../../store/store-context.js';

/**
 * A running call: a progress bar (determinate when the server reports a
 * total), the server's progress message, the time elapsed and Cancel, which
 * tells the server to stop (notifications/cancelled).
 */
export function CallProgress({ server, tool, call }: { server: string; tool: string; call: ToolCallState }) {
  const { cancelToolCall } = useActions();
  const cancel = useRef<HTMLButtonElement>(null);
  // The Call button just got disabled; if it had focus, Cancel is where the keyboard should be.
  useEffect(() => {
    const active = document.activeElement;
    const lost = active === null || active === document.body;
    if (lost || (active instanceof HTMLButtonElement && active.disabled)) cancel.current?.focus();
  }, []);
  const elapsed = useElapsedSeconds();
  const progress = call.progress;
  const fraction = progress ? progressFraction(progress) : undefined;
  const label =
    progress === undefined
      ? 'Waiting for the server…'
      : progress.total !== undefined
        ? `${formatNumber(progress.progress)} of ${formatNumber(progress.total)}`
        : `Progress ${formatNumber(progress.progress)}`;

  return (
    <div className="call-progress" aria-live="polite">
      <div
        className={`progress-bar${fraction === undefined ? ' progress-bar--indeterminate' : ''}`}
        role="progressbar"
        aria-label={`Calling ${tool}`}
        aria-valuemin={0}
        aria-valuemax={100}
        {...(fraction !== undefined ? { 'aria-valuenow': Math.round(fraction * 100) } : {})}
      >
        <span
          className="progress-bar__fill"
          style={fraction !== undefined ? { width: `${String(fraction * 100)}%` } : {}}
        />
      </div>
      <div className="call-progress__row">
        <span className="call-progress__text">
          <span className="call-progress__label">{label}</span>
          {progress?.message !== undefined && (
            <span className="call-progress__message">{progress.message}</span>
          )}
          <span className="call-progress__elapsed">{`${String(elapsed)} s`}</span>
        </span>
        <button
          ref={cancel}
          type="button"
          className="btn"
          disabled={call.cancelling === true}
          onClick={() => {
            // Never rejects; the call then ends with a "cancelled" error shown below.
            void cancelToolCall(server, tool);
          }}
        >
          {call.cancelling === true ? 'Cancelling…' : 'Cancel'}
        </button>
      </div>
    </div>
  );
}

function useElapsedSeconds(): number {
  const [started] = useState(() => Date.now());
  const [now, setNow] = useState(started);
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, []);
  return Math.floor((now - started) / 1000);
}

const formatNumber = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(1));
