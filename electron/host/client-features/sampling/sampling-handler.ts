import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import type { SamplingBlock, SamplingMessageIn, SamplingParams, SamplingResult } from './sampling-types.js';
import type {
  SamplingAnswer,
  SamplingPart,
  SamplingPrompt,
} from '../../../../shared/model/sampling-consent.js';
import type { ConsentBroker } from '../../consent/consent-broker.js';
import { HostError } from '../../errors.js';
import type { SamplingModel } from './sampling-model.js';
import { selectSamplingModel } from './sampling-model-selection.js';
import type { SamplingRateLimiter } from './sampling-rate-limit.js';

/** What sampling needs from the host: consent, a model, a rate limit. Shared by all connections. */
export interface SamplingServices {
  readonly consent: Pick<ConsentBroker, 'ask'>;
  readonly model: SamplingModel;
  readonly limiter: SamplingRateLimiter;
  /** Used when the server expresses no preference. */
  readonly defaultModel?: string | undefined;
}

/** What one connection tells the handler about its own server. */
export interface SamplingSource {
  /** The server's name in the configuration (shown in the dialogs, keys the rate limit). */
  readonly server: string;
  /** The server's own `instructions` from initialize: all "thisServer" context ever adds. */
  readonly instructions: () => string | undefined;
}

/** The spec's error for a request the person rejected (sampling, "Error Handling"). */
export const USER_REJECTED_CODE = -1;
export const USER_REJECTED_MESSAGE = 'User rejected sampling request';

const ALL_SERVERS_NOTICE =
  'The server asked for context from all servers. This host never shares other servers\u2019 data or the chat: at most this server\u2019s own instructions are added.';

/**
 * Handles one `sampling/createMessage` from one server:
 * rate limit → message checks → the person approves or edits the request →
 * Claude → the person reviews the completion → the result.
 *
 * What reaches Claude is only what this server sent (as edited by the
 * person), plus — only with the person's explicit yes — this server's own
 * instructions. Never the chat, never another server's data.
 */
export async function handleSampling(
  params: SamplingParams,
  source: SamplingSource,
  services: SamplingServices,
  signal: AbortSignal,
): Promise<SamplingResult> {
  const waitSeconds = services.limiter.take(source.server);
  if (waitSeconds > 0) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `Sampling rate limit: at most ${String(services.limiter.perMinute)} requests per minute from "${source.server}"; try again in ${String(waitSeconds)} s`,
    );
  }
  checkToolMessages(params.messages);

  const choice = selectSamplingModel(params.modelPreferences, { defaultModel: services.defaultModel });
  const includeContext = params.includeContext ?? 'none';
  const instructions = includeContext === 'none' ? undefined : source.instructions();
  const prompt: SamplingPrompt = {
    messages: params.messages.map((m) => ({ role: m.role, parts: blocksOf(m).map(toPart) })),
    ...(params.systemPrompt !== undefined ? { systemPrompt: params.systemPrompt } : {}),
    maxTokens: params.maxTokens,
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    ...(params.stopSequences !== undefined ? { stopSequences: params.stopSequences } : {}),
    ...(params.modelPreferences
      ? {
          modelPreferences: {
            hints: (params.modelPreferences.hints ?? []).flatMap((h) => (h.name ? [h.name] : [])),
            costPriority: params.modelPreferences.costPriority,
            speedPriority: params.modelPreferences.speedPriority,
            intelligencePriority: params.modelPreferences.intelligencePriority,
          },
        }
      : {}),
    model: choice.model,
    modelReason: choice.reason,
    includeContext,
    ...(includeContext === 'allServers' ? { contextNotice: ALL_SERVERS_NOTICE } : {}),
    ...(instructions !== undefined && instructions !== '' ? { contextPreview: instructions } : {}),
    tools: (params.tools ?? []).map((t) => ({
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
    })),
    ...(params.toolChoice?.mode !== undefined ? { toolChoice: params.toolChoice.mode } : {}),
  };

  const answer = await askOrFail(() => services.consent.ask('sampling', source.server, prompt, signal));
  if (answer.decision === 'reject') throw userRejected();

  const messages = applyTextEdits(params.messages, answer);
  const addContext = answer.includeContext && includeContext !== 'none' && instructions;
  const system = [
    answer.systemPrompt ?? params.systemPrompt,
    addContext ? contextBlock(source.server, instructions) : '',
  ]
    .filter((s): s is string => s !== undefined && s !== '')
    .join('\n\n');

  const completion = await services.model.complete(
    {
      model: choice.model,
      system: system === '' ? undefined : system,
      messages,
      maxTokens: answer.maxTokens,
      temperature: params.temperature,
      stopSequences: params.stopSequences,
      tools: params.tools,
      toolChoice: params.toolChoice,
    },
    signal,
  );

  const review = await askOrFail(() =>
    services.consent.ask(
      'samplingReview',
      source.server,
      { model: completion.model, stopReason: completion.stopReason, parts: completion.content.map(toPart) },
      signal,
    ),
  );
  if (review.decision === 'reject') throw userRejected();
  const content = completion.content.map((block, index): SamplingBlock => {
    const edit = review.textEdits.findLast((e) => e.part === index);
    return edit && block.type === 'text' ? { ...block, text: edit.text } : block;
  });
  return toResult(params, completion.model, completion.stopReason, content);
}

/** Registers the handler on a connection's client. */
export function installSampling(client: Client, source: SamplingSource, services: SamplingServices): void {
  // Deprecated from 2026-07-28 on, still how every 2025-era server samples.

  client.setRequestHandler('sampling/createMessage', (request, ctx) =>
    handleSampling(request.params, source, services, ctx.mcpReq.signal),
  );
}

function userRejected(): ProtocolError {
  return new ProtocolError(USER_REJECTED_CODE, USER_REJECTED_MESSAGE);
}

/** A consent that was withdrawn (the server cancelled, or went away) ends the request as rejected. */
async function askOrFail<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if (error instanceof HostError && error.code === 'cancelled') throw userRejected();
    throw error;
  }
}

function contextBlock(server: string, instructions: string): string {
  return `Context from the MCP server "${server}" (its own instructions):\n${instructions}`;
}

function blocksOf(message: SamplingMessageIn): SamplingBlock[] {
  return Array.isArray(message.content) ? message.content : [message.content];
}

/**
 * The spec's message constraints for tool use: a user message with tool
 * results holds only tool results, and every tool_use of an assistant
 * message is answered by the next (user) message.
 */
export function checkToolMessages(messages: readonly SamplingMessageIn[]): void {
  messages.forEach((message, index) => {
    const blocks = blocksOf(message);
    const results = blocks.filter((b) => b.type === 'tool_result');
    if (results.length > 0 && results.length !== blocks.length) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Tool results mixed with other content');
    }
    const uses = blocks.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    if (uses.length === 0) return;
    const next = messages[index + 1];
    if (!next) return; // the last message may be the model's own pending tool use
    const answered = new Set(blocksOf(next).flatMap((b) => (b.type === 'tool_result' ? [b.toolUseId] : [])));
    if (uses.some((id) => !answered.has(id))) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Tool result missing in request');
    }
  });
}

function toPart(block: SamplingBlock): SamplingPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
    case 'audio':
      return { type: block.type, mimeType: block.mimeType, bytes: Math.floor((block.data.length * 3) / 4) };
    case 'tool_use':
      return {
        type: 'tool_use',
        id: block.id,
        name: block.name,
        inputJson: JSON.stringify(block.input, null, 2),
      };
    case 'tool_result':
      return {
        type: 'tool_result',
        toolUseId: block.toolUseId,
        text: block.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n'),
        isError: block.isError === true,
      };
  }
}

function applyTextEdits(
  messages: readonly SamplingMessageIn[],
  answer: Extract<SamplingAnswer, { decision: 'approve' }>,
): SamplingMessageIn[] {
  return messages.map((message, m) => {
    const edits = answer.textEdits.filter((e) => e.message === m);
    if (edits.length === 0) return message;
    const blocks = blocksOf(message).map((block, p) => {
      const edit = edits.findLast((e) => e.part === p);
      return edit && block.type === 'text' ? { ...block, text: edit.text } : block;
    });
    return { ...message, content: Array.isArray(message.content) ? blocks : (blocks[0] ?? message.content) };
  });
}

/**
 * The result in the shape the request allows: without tools, one text (the
 * completion's texts joined); with tools, the blocks (one, or a list).
 */
function toResult(
  params: SamplingParams,
  model: string,
  stopReason: string,
  content: SamplingBlock[],
): SamplingResult {
  const withTools = params.tools !== undefined || params.toolChoice !== undefined;
  if (!withTools) {
    const text = content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    return { model, stopReason, role: 'assistant', content: { type: 'text', text } };
  }
  const only = content.length === 1 ? content[0] : undefined;
  return { model, stopReason, role: 'assistant', content: only ?? content };
}
