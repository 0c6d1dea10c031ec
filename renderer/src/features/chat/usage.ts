import type { Usage } from '../../../../shared/model/chat.js';

/** "842", "12.3k", "1.2M" tokens. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

/** "$0.0042", "$1.27": an estimate, so few digits. */
export function formatCost(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/** All the input tokens the model read: fresh, written to cache, read from cache. */
export const inputTokensOf = (usage: Usage): number =>
  usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;

/** "12.3k in · 840 out · ~$0.05". */
export function formatUsage(usage: Usage): string {
  return `${formatTokens(inputTokensOf(usage))} in · ${formatTokens(usage.outputTokens)} out · ~${formatCost(usage.costUsd)}`;
}
