import type { ChatMessage } from '../../../../shared/model/chat.js';
import {
  NEAR_LIMIT_SHARE,
  contextWindowOf,
  currentContext,
} from '../../../../shared/model/context-window.js';
import { useChat } from './chat-context.js';

const compact = (n: number): string =>
  n >= 1_000_000
    ? `${(n / 1_000_000).toFixed(1)}M`
    : n >= 1000
      ? `${String(Math.round(n / 1000))}k`
      : String(n);

/**
 * How full the model's context window is: the tokens of the latest request
 * of this branch against the model's window. Near the limit it turns amber
 * and says what happens next (old tool results cleared, compaction).
 */
export function ContextMeter({
  messages,
  model,
}: {
  messages: readonly ChatMessage[];
  model: string | undefined;
}) {
  const models = useChat((s) => s.models?.models);
  const current = currentContext(messages);
  if (!current) return null;
  const window = contextWindowOf(current.model ?? model ?? '', models);
  const share = Math.min(1, current.tokens / window);
  const near = share >= NEAR_LIMIT_SHARE;
  const percent = Math.round(share * 100);
  return (
    <div
      className={`context-meter${near ? ' context-meter--near' : ''}`}
      title={
        near
          ? 'Near the model’s context window: old tool results are cleared and the conversation is compacted as needed.'
          : 'Tokens of the latest request in this conversation, of the model’s context window'
      }
    >
      <span
        className="context-meter__bar"
        role="meter"
        aria-label="Context used"
        aria-valuemin={0}
        aria-valuemax={window}
        aria-valuenow={current.tokens}
        aria-valuetext={`${current.tokens.toLocaleString('en-US')} of ${window.toLocaleString('en-US')} tokens (${String(percent)}%)`}
      >
        <span className="context-meter__fill" style={{ width: `${String(Math.max(2, percent))}%` }} />
      </span>
      <span className="context-meter__text">
        {compact(current.tokens)} / {compact(window)}
      </span>
    </div>
  );
}
