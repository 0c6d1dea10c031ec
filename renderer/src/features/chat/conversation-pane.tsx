import { useState } from 'react';
import { useChat } from './chat-context.js';
import { formatUsage } from './usage.js';
import { Spinner } from '../../common/spinner.js';
import { Composer } from './composer.js';
import { ContextMeter } from './context-meter.js';
import { ConversationSettingsDialog, ExportDialog, MessageList } from './lazy.js';
import { Deferred } from '../../common/on-demand.js';
import { NoKeyPrompt } from './no-key-prompt.js';
import { TurnStatus } from './turn-status.js';

const RUNNING = new Set(['streaming', 'retrying', 'waiting-consent', 'running-tools']);

/**
 * One conversation: its title, how full the context window is, its cost, its
 * settings and export; the messages, the turn's state, the composer.
 */
export function ConversationPane({ id }: { id: string }) {
  const summary = useChat((s) => s.conversations.find((c) => c.id === id));
  const view = useChat((s) => s.details[id]);
  const keySet = useChat((s) => s.settings?.apiKey.set);
  const running = view?.turn !== undefined && RUNNING.has(view.turn.state);
  const empty = view !== undefined && !view.loading && view.messages.length === 0 && !view.streaming;
  const appModel = useChat((s) => s.settings?.model);
  const [dialog, setDialog] = useState<'settings' | 'export'>();

  return (
    <section className="conversation" aria-label={summary?.title ?? 'Conversation'}>
      <header className="conversation__header">
        <h2 className="conversation__title">{summary?.title || 'Untitled'}</h2>
        {summary && (summary.usage.inputTokens > 0 || summary.usage.outputTokens > 0) && (
          <span
            className="conversation__usage"
            title="Tokens and estimated cost of the whole conversation (an estimate, not a bill)"
          >
            {view?.turnUsage && <>Last turn {formatUsage(view.turnUsage)} · </>}
            Total {formatUsage(summary.usage)}
          </span>
        )}
        <span className="conversation__tools">
          {view && <ContextMeter messages={view.messages} model={summary?.settings?.model ?? appModel} />}
          <button
            type="button"
            className="btn btn--small"
            aria-label="Settings of this conversation"
            disabled={!summary}
            onClick={() => {
              setDialog('settings');
            }}
          >
            Settings
          </button>
          <button
            type="button"
            className="btn btn--small"
            disabled={!summary || view === undefined || view.messages.length === 0}
            onClick={() => {
              setDialog('export');
            }}
          >
            Export
          </button>
        </span>
      </header>
      <Deferred>
        {summary && dialog === 'settings' && (
          <ConversationSettingsDialog
            summary={summary}
            onClose={() => {
              setDialog(undefined);
            }}
          />
        )}
        {summary && dialog === 'export' && (
          <ExportDialog
            summary={summary}
            onClose={() => {
              setDialog(undefined);
            }}
          />
        )}
      </Deferred>
      {view === undefined || (view.loading && view.messages.length === 0) ? (
        <div className="conversation__scroller">
          {view?.loadError ? (
            <div className="inline-alert chat-load-error" role="alert">
              The conversation could not be loaded: {view.loadError.message}
            </div>
          ) : (
            <LoadingConversation />
          )}
        </div>
      ) : empty ? (
        <div className="conversation__scroller">
          <div className="chat-welcome">
            {keySet === false ? <NoKeyPrompt /> : <p className="muted">Ask Claude anything.</p>}
          </div>
        </div>
      ) : (
        <Deferred fallback={<LoadingConversation />}>
          <MessageList id={id} footer={<TurnStatus id={id} />} running={running} />
        </Deferred>
      )}
      {empty && <TurnStatus id={id} />}
      <Composer key={id} conversationId={id} running={running} />
    </section>
  );
}

function LoadingConversation() {
  return (
    <div className="empty-state empty-state--quiet" role="status">
      <Spinner />
      <p>Loading conversation…</p>
    </div>
  );
}
