import type { Usage } from '../../../shared/model/chat.js';

/**
 * Estimated prices in US dollars per million tokens, by model family. An
 * ESTIMATE for the person's orientation, not a bill: list prices change, and
 * Anthropic-compatible endpoints price differently. Cache writes (5-minute
 * cache) cost 1.25× the input price, cache reads 0.1×.
 */
interface Price {
  input: number;
  output: number;
}

const PRICES: readonly [RegExp, Price][] = [
  [/opus-4-[5-9]|opus-[5-9]/, { input: 5, output: 25 }],
  [/opus/, { input: 15, output: 75 }],
  [/sonnet/, { input: 3, output: 15 }],
  [/haiku-4|haiku-[5-9]/, { input: 1, output: 5 }],
  [/3-5-haiku|haiku-3-5/, { input: 0.8, output: 4 }],
  [/haiku/, { input: 0.25, output: 1.25 }],
];
/** Unknown models are priced like the mid family, so the estimate is never silently zero. */
const FALLBACK: Price = { input: 3, output: 15 };

export function priceOf(model: string): Price {
  return PRICES.find(([pattern]) => pattern.test(model))?.[1] ?? FALLBACK;
}

export interface ApiUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export function usageOf(model: string, usage: ApiUsage): Usage {
  const price = priceOf(model);
  const input = usage.input_tokens;
  const output = usage.output_tokens;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const costUsd =
    (input * price.input +
      cacheWrite * price.input * 1.25 +
      cacheRead * price.input * 0.1 +
      output * price.output) /
    1_000_000;
  return {
    inputTokens: input,
    outputTokens: output,
    cacheCreationInputTokens: cacheWrite,
    cacheReadInputTokens: cacheRead,
    costUsd,
  };
}
