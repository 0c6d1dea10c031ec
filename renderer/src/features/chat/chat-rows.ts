import type { ChatMessage, ToolResultChatBlock, Usage } from '../../../../shared/model/chat.js';
import { addUsage } from '../../../../shared/model/usage.js';

/** What the message list draws: committed messages, tool results folded into their calls. */
export interface ChatRows {
  /** Messages with a row of their own, oldest first. */
  readonly rows: readonly ChatMessage[];
  /** Tool results by tool_use id, drawn inside the call's card. */
  readonly results: ReadonlyMap<string, ToolResultChatBlock>;
  /** For the last assistant message of each turn: the tokens and cost of the whole turn. */
  readonly turnUsage: ReadonlyMap<string, Usage>;
}

/**
 * Folds "tool" messages into the cards of the calls they answer and sums the
 * usage of each turn. O(messages); recomputed only when the list changes.
 */
export function chatRows(messages: readonly ChatMessage[]): ChatRows {
  const callIds = new Set<string>();
  const results = new Map<string, ToolResultChatBlock>();
  for (const message of messages) {
    for (const block of message.blocks) {
      if (block.type === 'tool_use') callIds.add(block.id);
      else if (block.type === 'tool_result') results.set(block.toolUseId, block);
    }
  }
  const rows = messages.filter(
    (m) => m.role !== 'tool' || m.blocks.some((b) => b.type !== 'tool_result' || !callIds.has(b.toolUseId)),
  );
  const totals = new Map<string, { usage: Usage; last: string }>();
  for (const message of messages) {
    if (message.role !== 'assistant' || !message.usage) continue;
    const previous = totals.get(message.turnId);
    totals.set(message.turnId, {
      usage: previous ? addUsage(previous.usage, message.usage) : message.usage,
      last: message.id,
    });
  }
  const turnUsage = new Map<string, Usage>();
  for (const { usage, last } of totals.values()) turnUsage.set(last, usage);
  return { rows, results, turnUsage };
}
