import type { ChatMessage, Usage } from './chat.js';
import type { ModelInfo } from './settings.js';

/**
 * How much of a model's context window a conversation uses: the context
 * meter in the UI and the host's "near the limit" decision read the same
 * numbers.
 */

/** When the models API does not say: the window of every current Claude model. */
export const DEFAULT_CONTEXT_WINDOW = 200_000;

/** From this share of the window on, the host asks the API to clear old tool results and compact. */
export const NEAR_LIMIT_SHARE = 0.7;

/** The model's context window: from the models API when known, else the default. */
export function contextWindowOf(model: string, models: readonly ModelInfo[] | undefined): number {
  return models?.find((m) => m.id === model)?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
}

/** Tokens one request took in and gave out: the conversation's size at that point. */
export function contextTokens(usage: Usage): number {
  if (usage.contextTokens !== undefined) return usage.contextTokens;
  return usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens + usage.outputTokens;
}

/** The latest assistant message with usage on this branch: the conversation's current size. */
export function currentContext(
  messages: readonly ChatMessage[],
): { tokens: number; model: string | undefined } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === 'assistant' && message.usage) {
      return { tokens: contextTokens(message.usage), model: message.model };
    }
  }
  return undefined;
}
