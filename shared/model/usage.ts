import type { Usage } from './chat.js';

/** No tokens, no cost: the start of a sum. */
export const ZERO_USAGE: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
  costUsd: 0,
};

/** Sum of usages (the model requests of one turn, or a run of messages); a context size is not summed. */
export function addUsage(a: Usage, b: Usage): Usage {
  const thinking = (a.thinkingTokens ?? 0) + (b.thinkingTokens ?? 0);
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
    costUsd: a.costUsd + b.costUsd,
    ...(thinking > 0 ? { thinkingTokens: thinking } : {}),
  };
}
