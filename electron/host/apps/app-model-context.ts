import type { ChatBlock, ContextPart } from '../../../shared/model/chat.js';

/** The most text one app's context may add to a message (characters). */
const MAX_CONTEXT_CHARS = 100_000;
const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export interface ModelContextUpdate {
  server: string;
  resourceUri: string;
  content?: readonly Record<string, unknown>[] | undefined;
  structuredContent?: Record<string, unknown> | undefined;
}

/**
 * What apps asked to add to the model's context (`ui/update-model-context`).
 * Each view's update replaces its previous one; the latest of each goes
 * into the conversation's next user message, as context the person can open
 * in the history, and is then cleared, as the spec suggests.
 */
export class AppModelContext {
  private readonly pending = new Map<string, Map<string, ChatBlock>>();

  set(conversationId: string, viewId: string, update: ModelContextUpdate): void {
    const parts = toParts(update);
    let views = this.pending.get(conversationId);
    if (!views) {
      views = new Map();
      this.pending.set(conversationId, views);
    }
    if (parts.length === 0) {
      views.delete(viewId);
      return;
    }
    views.set(viewId, {
      type: 'resource_context',
      server: update.server,
      uri: update.resourceUri,
      content: parts,
    });
  }

  /** The pending context blocks of a conversation, removed as they are taken. */
  take(conversationId: string): ChatBlock[] {
    const views = this.pending.get(conversationId);
    this.pending.delete(conversationId);
    return views ? [...views.values()] : [];
  }
}

function toParts(update: ModelContextUpdate): ContextPart[] {
  const parts: ContextPart[] = [];
  let budget = MAX_CONTEXT_CHARS;
  const text = (value: string) => {
    const kept = value.slice(0, Math.max(0, budget));
    budget -= kept.length;
    if (kept !== '') parts.push({ type: 'text', text: kept });
  };
  for (const block of update.content ?? []) {
    if (block.type === 'text' && typeof block.text === 'string') text(block.text);
    else if (
      block.type === 'image' &&
      typeof block.data === 'string' &&
      typeof block.mimeType === 'string' &&
      MODEL_IMAGE_TYPES.has(block.mimeType) &&
      block.data.length <= 7_000_000
    ) {
      parts.push({ type: 'image', mimeType: block.mimeType, data: block.data });
    }
  }
  if (update.structuredContent !== undefined) text(JSON.stringify(update.structuredContent, null, 2));
  return parts;
}
