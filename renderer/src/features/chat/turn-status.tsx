import type { ChatErrorCode } from '../../../../shared/model/chat.js';
import { useChat, useChatActions } from './chat-context.js';
import { Spinner } from '../../common/spinner.js';
import { useHostReachable } from '../../store/store-context.js';

const ERROR_TITLE: Record<ChatErrorCode, string> = {
  no_api_key: 'No API key is set',
  auth: 'The API key was refused (401)',
  rate_limited: 'Rate limited by the API (429)',
  overloaded: 'The API is overloaded (529)',
  network: 'Could not reach the API',
  api: 'The API returned an error',
  iteration_limit: 'Stopped at the tool-call limit for one turn',
  context_length: 'The conversation is too long for the model',
  internal: 'Something went wrong in the host',
};

/** Errors fixed in Settings rather than by trying again. */
const SETTINGS_ERRORS = new Set<ChatErrorCode>(['no_api_key', 'auth']);

/**
 * Under the messages: what the turn is doing now (writing, waiting for
 * approval, running tools, retrying), or why it ended badly with what the
 * person can do about it (Retry, Open Settings).
 */
export function TurnStatus({ id }: { id: string }) {
  const turn = useChat((s) => s.details[id]?.turn);
  const requestError = useChat((s) => s.details[id]?.requestError);
  const streaming = useChat((s) => s.details[id]?.streaming !== undefined);
  // The host stopped mid-turn (its notice says so): offer Retry until something else happens.
  const interrupted = useChat((s) => {
    const last = s.details[id]?.messages.at(-1);
    return (
      last?.role === 'notice' && last.blocks.some((b) => b.type === 'notice' && b.kind === 'interrupted')
    );
  });
  const { retry, setView, createConversation } = useChatActions();

  if (requestError) {
    const noKey = requestError.code === 'no_api_key';
    return (
      <div className="turn-status turn-status--error" role="alert">
        <span>
          <strong>{noKey ? 'Add an API key to chat.' : 'Not sent.'}</strong> {requestError.message}
        </span>
        {noKey && (
          <button
            type="button"
            className="btn"
            onClick={() => {
              setView('settings');
            }}
          >
            Open Settings
          </button>
        )}
      </div>
    );
  }
  if (interrupted && (!turn || turn.state === 'done' || turn.state === 'stopped' || turn.state === 'error')) {
    // The host's notice just above says what happened; one notice is enough, this adds the way on.
    return (
      <div className="turn-status" role="status">
        <RetryButton retry={retry} />
      </div>
    );
  }
  if (!turn) return null;

  switch (turn.state) {
    case 'streaming':
      return streaming ? null : (
        <div className="turn-status" role="status">
          <Spinner /> Claude is thinking…
        </div>
      );
    case 'retrying':
      return (
        <div className="turn-status turn-status--warning" role="status">
          <Spinner /> {turn.error?.message ?? 'The API is busy; retrying…'}
        </div>
      );
    case 'waiting-consent':
      return (
        <div className="turn-status" role="status">
          <Spinner /> Waiting for your approval of a tool call…
        </div>
      );
    case 'running-tools':
      return (
        <div className="turn-status" role="status">
          <Spinner /> Running tools…
        </div>
      );
    case 'done':
      return null;
    case 'stopped':
      // The host's own notice in the conversation says that it stopped.
      return turn.canRetry ? (
        <div className="turn-status" role="status">
          <span>You can run this turn again.</span>
          <RetryButton retry={retry} />
        </div>
      ) : null;
    case 'error': {
      const code = turn.error?.code ?? 'internal';
      return (
        <div className="turn-status turn-status--error" role="alert">
          <span>
            <strong>{ERROR_TITLE[code]}.</strong> {turn.error?.message}
          </span>
          {SETTINGS_ERRORS.has(code) && (
            <button
              type="button"
              className="btn"
              onClick={() => {
                setView('settings');
              }}
            >
              Open Settings
            </button>
          )}
          {code === 'context_length' && (
            <button
              type="button"
              className="btn"
              onClick={() => {
                void createConversation();
              }}
            >
              New conversation
            </button>
          )}
          {turn.canRetry && <RetryButton retry={retry} />}
        </div>
      );
    }
  }
}

function RetryButton({ retry }: { retry: () => Promise<unknown> }) {
  const reachable = useHostReachable();
  return (
    <button
      type="button"
      className="btn"
      disabled={!reachable}
      onClick={() => {
        void retry();
      }}
    >
      Retry
    </button>
  );
}
