import { afterEach, describe, expect, it } from 'vitest';
import {
  AnthropicSamplingModel,
  claudeSettingsFrom,
} from '../../../../../../electron/host/client-features/sampling/sampling-model.js';
import { startFakeAnthropic } from '../../../../../fixtures/fake-anthropic.js';

const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };
afterEach(() => {
  if (saved.key === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = saved.key;
  if (saved.url === undefined) delete process.env.ANTHROPIC_BASE_URL;
  else process.env.ANTHROPIC_BASE_URL = saved.url;
});

const source = (key: string | undefined) => () =>
  Promise.resolve({
    apiKey: () => Promise.resolve(key),
    settings: () => ({ baseUrl: 'https://saved.example' }),
  });

describe('where sampling finds its Claude key', () => {
  it('a key saved in Settings wins, with the saved base URL', async () => {
    process.env.ANTHROPIC_API_KEY = 'env-key';
    expect(await claudeSettingsFrom(source('saved-key'))()).toEqual({
      apiKey: 'saved-key',
      baseURL: 'https://saved.example',
    });
  });

  it('without a saved key, the host environment', async () => {
    process.env.ANTHROPIC_API_KEY = 'env-key';
    process.env.ANTHROPIC_BASE_URL = 'http://127.0.0.1:9';
    expect(await claudeSettingsFrom(source(undefined))()).toEqual({
      apiKey: 'env-key',
      baseURL: 'http://127.0.0.1:9',
    });
  });

  it('no key anywhere: one clear error, and nothing is sent', async () => {
    const claude = await startFakeAnthropic();
    try {
      const model = new AnthropicSamplingModel(() => Promise.resolve({ baseURL: claude.url }));
      const request = { model: 'claude-sonnet-5-5', messages: [], maxTokens: 10 };
      await expect(model.complete(request, new AbortController().signal)).rejects.toThrow(
        'No Claude API key is set in the host',
      );
      expect(claude.messageRequests()).toHaveLength(0);
    } finally {
      await claude.close();
    }
  });
});
