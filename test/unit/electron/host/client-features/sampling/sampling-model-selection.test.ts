import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SAMPLING_MODEL,
  TIER_MODELS,
  selectSamplingModel,
  tierOf,
} from '../../../../../../electron/host/client-features/sampling/sampling-model-selection.js';
import { SamplingRateLimiter } from '../../../../../../electron/host/client-features/sampling/sampling-rate-limit.js';
import { checkToolMessages } from '../../../../../../electron/host/client-features/sampling/sampling-handler.js';

describe('sampling model selection', () => {
  it('no preferences: the default model', () => {
    expect(selectSamplingModel(undefined).model).toBe(DEFAULT_SAMPLING_MODEL);
    expect(selectSamplingModel({ hints: [] }, { defaultModel: 'claude-opus-4-8' }).model).toBe(
      'claude-opus-4-8',
    );
  });

  it('a hint naming one known model selects it', () => {
    expect(selectSamplingModel({ hints: [{ name: 'claude-opus-4-7' }] }).model).toBe('claude-opus-4-7');
  });

  it('a hint matching several ids: priorities choose the tier among them', () => {
    const fast = selectSamplingModel({ hints: [{ name: 'claude' }], speedPriority: 1, costPriority: 1 });
    expect(fast.model).toBe(TIER_MODELS.haiku);
    const smart = selectSamplingModel({ hints: [{ name: 'claude' }], intelligencePriority: 1 });
    expect(smart.model).toBe(TIER_MODELS.opus);
    expect(selectSamplingModel({ hints: [{ name: '4-5' }] }).model).toBe('claude-sonnet-4-5');
  });

  it('an old or foreign family name maps to its tier; unknown hints fall through in order', () => {
    expect(selectSamplingModel({ hints: [{ name: 'claude-3-sonnet' }] }).model).toBe(TIER_MODELS.sonnet);
    expect(selectSamplingModel({ hints: [{ name: 'claude-3-haiku-20240307' }] }).model).toBe(
      TIER_MODELS.haiku,
    );
    expect(selectSamplingModel({ hints: [{ name: 'gemini-1.5-flash' }] }).model).toBe(TIER_MODELS.haiku);
    expect(selectSamplingModel({ hints: [{ name: 'gemini-1.5-pro' }] }).model).toBe(TIER_MODELS.sonnet);
    expect(selectSamplingModel({ hints: [{ name: 'llama' }, { name: 'opus' }] }).model).toBe(
      TIER_MODELS.opus,
    );
    expect(tierOf('gpt-4o-mini')).toBe('haiku');
  });

  it('priorities alone score the tiers', () => {
    expect(
      selectSamplingModel({ costPriority: 0.9, speedPriority: 0.8, intelligencePriority: 0.2 }).model,
    ).toBe(TIER_MODELS.haiku);
    expect(selectSamplingModel({ intelligencePriority: 0.9, speedPriority: 0.2 }).model).toBe(
      TIER_MODELS.opus,
    );
    expect(
      selectSamplingModel({ costPriority: 0.5, speedPriority: 0.5, intelligencePriority: 0.8 }).model,
    ).toBe(TIER_MODELS.sonnet);
    expect(selectSamplingModel({ intelligencePriority: 0.9 }).reason).toMatch(/priorities favour opus/);
  });
});

describe('sampling rate limit (token bucket per server)', () => {
  it('allows N per minute per server, then refuses with the wait, and refills', () => {
    let now = 0;
    const limiter = new SamplingRateLimiter(2, () => now);
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(30);
    expect(limiter.take('b')).toBe(0); // each server has its own bucket
    now = 30_000;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBeGreaterThan(0);
  });
});

describe('sampling tool-use message constraints', () => {
  const use = {
    role: 'assistant' as const,
    content: [{ type: 'tool_use' as const, id: 'c1', name: 'w', input: {} }],
  };
  const result = (id: string) => ({
    role: 'user' as const,
    content: {
      type: 'tool_result' as const,
      toolUseId: id,
      content: [{ type: 'text' as const, text: '18°C' }],
    },
  });
  it('accepts a tool use answered by its result', () => {
    expect(() => {
      checkToolMessages([{ role: 'user', content: { type: 'text', text: 'weather?' } }, use, result('c1')]);
    }).not.toThrow();
  });
  it('refuses a missing result and results mixed with text (-32602)', () => {
    expect(() => {
      checkToolMessages([use, result('other')]);
    }).toThrow(/Tool result missing in request/);
    expect(() => {
      checkToolMessages([
        use,
        {
          role: 'user',
          content: [
            { type: 'text', text: 'here:' },
            { type: 'tool_result', toolUseId: 'c1', content: [] },
          ],
        },
      ]);
    }).toThrow(/Tool results mixed with other content/);
  });
});
