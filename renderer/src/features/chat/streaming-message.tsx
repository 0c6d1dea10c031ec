import { useChat } from './chat-context.js';
import { useHostReachable } from '../../store/store-context.js';
import { Markdown } from '../markdown/lazy.js';
import { Deferred } from '../../common/on-demand.js';
import { ThinkingBlock } from './thinking-block.js';
import type { ConversationView } from './chat-state.js';

/** Whether the conversation holds the host's "interrupted" notice for the turn whose text was cut off. */
export function interruptedNoticeShown(view: ConversationView | undefined): boolean {
  const turnId = view?.streaming?.turnId;
  if (view === undefined || turnId === undefined) return false;
  return view.messages.some(
    (m) => m.turnId === turnId && m.blocks.some((b) => b.type === 'notice' && b.kind === 'interrupted'),
  );
}

/**
 * The answer while it streams. Markdown renders it paragraph by paragraph
 * from a cache, so a new frame parses only the paragraph being written.
 * When the host stops answering (or stopped, and the text was never saved),
 * the text stays, marked as cut off.
 */
export function StreamingMessage({ id }: { id: string }) {
  const text = useChat((s) => s.details[id]?.streaming?.text ?? '');
  const thinking = useChat((s) => s.details[id]?.streaming?.thinking ?? '');
  const cutOff = useChat((s) => s.details[id]?.streaming?.cutOff === true);
  // The host's "interrupted" notice of this turn already says what happened: one notice is enough.
  const noticed = useChat((s) => interruptedNoticeShown(s.details[id]));
  const reachable = useHostReachable();
  const live = reachable && !cutOff;
  return (
    <article
      className={`message message--assistant ${live ? 'message--streaming' : 'message--cut-off'}`}
      aria-label={live ? 'Claude is writing' : 'Partial answer, cut off'}
      aria-busy={live}
    >
      <div className="message__author">Claude</div>
      <div className="message__body">
        {thinking !== '' && <ThinkingBlock text={thinking} streaming={live && text === ''} />}
        <Deferred fallback={<div className="message__plain">{text}</div>}>
          <Markdown text={text} />
        </Deferred>
        {live && <span className="message__caret" aria-hidden="true" />}
      </div>
      {!live && !(cutOff && noticed) && (
        <p className="message__cut-off" role="note">
          {cutOff
            ? 'Cut off: the host stopped before this answer was finished, so it was not saved. It stays on this page until you reload it.'
            : 'Waiting for the host: no more text arrives while it is not reachable.'}
        </p>
      )}
    </article>
  );
}
