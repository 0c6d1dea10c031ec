import Anthropic from '@anthropic-ai/sdk';
import { DEFAULT_MODEL, originOf } from '../../../shared/model/settings.js';
import type { ModelList } from '../../../shared/model/settings.js';
import { toChatError } from './api-errors.js';
import type { SettingsStore } from '../persistence/settings-store.js';

/** Shown in the model picker when the models API cannot be reached. */
const FALLBACK_MODELS: ModelList['models'] = [
  { id: DEFAULT_MODEL, displayName: 'Claude Sonnet 4.6' },
  { id: 'claude-opus-4-7', displayName: 'Claude Opus 4.7' },
  { id: 'claude-haiku-4-5', displayName: 'Claude Haiku 4.5' },
];

/**
 * The models the endpoint offers (models API), with each model's context
 * window and whether it takes adaptive thinking when the API says; the
 * default list, and why, when the API cannot be asked or does not answer.
 */
export async function fetchModels(settings: SettingsStore): Promise<ModelList> {
  const apiKey = await settings.apiKey();
  if (apiKey === undefined)
    return { models: FALLBACK_MODELS, source: 'default', error: noKeyReason(settings) };
  const client = new Anthropic({
    apiKey,
    baseURL: settings.settings().baseUrl,
    maxRetries: 0,
    timeout: 10_000,
  });
  try {
    const models: ModelList['models'] = [];
    for await (const model of client.models.list({ limit: 100 })) {
      models.push({
        id: model.id,
        displayName: model.display_name,
        createdAt: model.created_at,
        ...(typeof model.max_input_tokens === 'number' ? { contextWindow: model.max_input_tokens } : {}),
        ...(model.capabilities
          ? { adaptiveThinking: model.capabilities.thinking.types.adaptive.supported }
          : {}),
      });
      if (models.length >= 500) break;
    }
    return models.length > 0
      ? { models, source: 'api' }
      : { models: FALLBACK_MODELS, source: 'default', error: 'The models API returned no models' };
  } catch (error) {
    // One readable line (the SDK's message carries the raw JSON body).
    return {
      models: FALLBACK_MODELS,
      source: 'default',
      error: toChatError(error, settings.settings().baseUrl).message,
    };
  }
}

/**
 * Why no key goes to the models API: none is saved, or the saved one belongs
 * to another host than the base URL's (it stays bound to the host it was
 * entered for until the person allows it here).
 */
function noKeyReason(settings: SettingsStore): string {
  const { apiKey, baseUrl } = settings.settings();
  return apiKey.heldFor !== undefined
    ? `the saved key is not sent to ${originOf(baseUrl)} (it was saved for ${apiKey.heldFor})`
    : 'No API key is set';
}
