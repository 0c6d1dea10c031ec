import type Anthropic from '@anthropic-ai/sdk';
import type { BetaContextManagementResponse } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { Message, Usage as ApiUsage } from '@anthropic-ai/sdk/resources/messages';
import type { BetaMessage, BetaUsage } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { RequestPlan } from './model-request.js';
import type { ResponseBlock } from './response-blocks.js';
import { withoutCompaction } from './wire-types.js';

export interface StreamHandlers {
  onText: (delta: string) => void;
  onThinking: (delta: string) => void;
}

/** A finished response, whichever endpoint answered it. */
export interface ModelResponse {
  content: readonly ResponseBlock[];
  usage: ApiUsage | BetaUsage;
  stopReason: string | null;
  model: string;
  /** What the API's context management cleared (beta endpoint only). */
  contextManagement: BetaContextManagementResponse | null;
}

/**
 * Streams one request: to the standard Messages endpoint, or — when the plan
 * uses context management or the history holds a compaction — to the beta
 * endpoint with the beta names it needs. Text and thinking deltas are handed
 * on as they arrive; the finished message is returned.
 */
export async function streamPlan(
  client: Anthropic,
  model: string,
  plan: RequestPlan,
  handlers: StreamHandlers,
  signal: AbortSignal,
): Promise<ModelResponse> {
  const common = {
    model,
    max_tokens: plan.maxTokens,
    system: plan.system,
    ...(plan.offer.tools.length > 0 ? { tools: plan.offer.tools } : {}),
    ...(plan.thinking ? { thinking: plan.thinking } : {}),
    ...(plan.effort !== undefined ? { output_config: { effort: plan.effort } } : {}),
  };
  if (plan.beta) {
    const stream = client.beta.messages.stream(
      {
        ...common,
        messages: plan.messages,
        betas: plan.beta.betas,
        context_management: plan.beta.contextManagement,
      },
      { signal },
    );
    const final = await follow(stream, handlers);
    return { ...responseOf(final), contextManagement: final.context_management };
  }
  const stream = client.messages.stream(
    { ...common, messages: withoutCompaction(plan.messages) },
    { signal },
  );
  return { ...responseOf(await follow(stream, handlers)), contextManagement: null };
}

/** What both endpoints' streams have in common. */
interface Followable<M> {
  on(event: 'text' | 'thinking', listener: (delta: string) => void): unknown;
  finalMessage(): Promise<M>;
}

async function follow<M>(stream: Followable<M>, handlers: StreamHandlers): Promise<M> {
  stream.on('text', handlers.onText);
  stream.on('thinking', handlers.onThinking);
  return stream.finalMessage();
}

function responseOf(final: Message | BetaMessage): Omit<ModelResponse, 'contextManagement'> {
  return { content: final.content, usage: final.usage, stopReason: final.stop_reason, model: final.model };
}
