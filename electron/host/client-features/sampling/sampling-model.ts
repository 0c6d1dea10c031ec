import Anthropic from '@anthropic-ai/sdk';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { Tool } from '@modelcontextprotocol/client';
import type { SamplingBlock, SamplingMessageIn, SamplingToolChoice } from './sampling-types.js';
import { describeError } from '../../errors.js';

/**
 * The narrow model interface sampling needs: one non-streaming completion.
 * Implemented with the Anthropic SDK below; tests point it at a local fake
 * Messages API through `baseURL`.
 */
export interface SamplingCompletionRequest {
  readonly model: string;
  readonly system?: string | undefined;
  readonly messages: readonly SamplingMessageIn[];
  readonly maxTokens: number;
  readonly temperature?: number | undefined;
  readonly stopSequences?: readonly string[] | undefined;
  readonly tools?: readonly Tool[] | undefined;
  readonly toolChoice?: SamplingToolChoice | undefined;
}

export interface SamplingCompletion {
  readonly model: string;
  /** MCP stop reason: endTurn, stopSequence, maxTokens, toolUse, or the provider's own word. */
  readonly stopReason: string;
  /** Text and tool_use blocks, in the model's order. */
  readonly content: SamplingBlock[];
}

export interface SamplingModel {
  complete(request: SamplingCompletionRequest, signal: AbortSignal): Promise<SamplingCompletion>;
}

/** Where the Claude client finds its key and endpoint; read on every request so settings changes apply. */
export interface ClaudeSettings {
  readonly apiKey?: string | undefined;
  readonly baseURL?: string | undefined;
}

/**
 * The settings read used until the chat engineer's settings store is wired
 * in: the standard ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL environment
 * variables of the host process (never passed to servers).
 */
export const claudeSettingsFromEnv = (): Promise<ClaudeSettings> =>
  Promise.resolve({
    apiKey: process.env.ANTHROPIC_API_KEY,
    baseURL: process.env.ANTHROPIC_BASE_URL,
  });

/**
 * The chat settings as sampling reads them. The chat branch's SettingsStore
 * (electron/host/settings/settings-store.ts: `load()`, `apiKey()`,
 * `settings().baseUrl`) has this shape, so wiring it in is one line in host.ts.
 */
export interface ClaudeSettingsSource {
  apiKey(): Promise<string | undefined>;
  settings(): { readonly baseUrl: string };
}

/**
 * Settings first, environment second: when the person saved a key in
 * Settings, sampling uses it with the saved base URL; otherwise the
 * ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL of the host process. `open` is
 * called per request (a fresh read), so a key saved in Settings applies to
 * the next sampling request.
 */
export function claudeSettingsFrom(open: () => Promise<ClaudeSettingsSource>): () => Promise<ClaudeSettings> {
  return async () => {
    const source = await open();
    const apiKey = await source.apiKey();
    if (apiKey !== undefined && apiKey !== '') return { apiKey, baseURL: source.settings().baseUrl };
    return claudeSettingsFromEnv();
  };
}

/** Calls Claude's Messages API for sampling. */
export class AnthropicSamplingModel implements SamplingModel {
  constructor(private readonly settings: () => Promise<ClaudeSettings>) {}

  async complete(request: SamplingCompletionRequest, signal: AbortSignal): Promise<SamplingCompletion> {
    const { apiKey, baseURL } = await this.settings();
    if (apiKey === undefined || apiKey === '') {
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'No Claude API key is set in the host');
    }
    const client = new Anthropic({ apiKey, ...(baseURL ? { baseURL } : {}), maxRetries: 1 });
    const tools = request.toolChoice?.mode === 'none' ? undefined : request.tools;
    try {
      const message = await client.messages.create(
        {
          model: request.model,
          max_tokens: request.maxTokens,
          messages: request.messages.map(toAnthropicMessage),
          ...(request.system !== undefined && request.system !== '' ? { system: request.system } : {}),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
          ...(request.stopSequences?.length ? { stop_sequences: [...request.stopSequences] } : {}),
          ...(tools?.length
            ? {
                tools: tools.map(toAnthropicTool),
                tool_choice: { type: request.toolChoice?.mode === 'required' ? 'any' : 'auto' },
              }
            : {}),
        },
        { signal },
      );
      return {
        model: message.model,
        stopReason: toMcpStopReason(message.stop_reason),
        content: message.content.flatMap(fromAnthropicBlock),
      };
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      if (signal.aborted) throw new ProtocolError(ProtocolErrorCode.InternalError, 'Sampling was cancelled');
      // The SDK's messages carry the HTTP status and the API's reason, never the key.
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `Claude request failed: ${describeError(error)}`,
      );
    }
  }
}

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type ImageType = (typeof IMAGE_TYPES)[number];
const isImageType = (t: string): t is ImageType => (IMAGE_TYPES as readonly string[]).includes(t);

function contentList(message: SamplingMessageIn): SamplingBlock[] {
  return Array.isArray(message.content) ? message.content : [message.content];
}

function toAnthropicMessage(message: SamplingMessageIn): Anthropic.MessageParam {
  return { role: message.role, content: contentList(message).map(toAnthropicBlock) };
}

function toAnthropicBlock(block: SamplingBlock): Anthropic.ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return toImage(block.mimeType, block.data);
    case 'audio':
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'Claude does not accept audio in sampling messages',
      );
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result': {
      const content = block.content.flatMap((c): (Anthropic.TextBlockParam | Anthropic.ImageBlockParam)[] => {
        if (c.type === 'text') return [{ type: 'text', text: c.text }];
        if (c.type === 'image') return [toImage(c.mimeType, c.data)];
        return [{ type: 'text', text: `[${c.type} content omitted]` }];
      });
      return {
        type: 'tool_result',
        tool_use_id: block.toolUseId,
        content,
        ...(block.isError === true ? { is_error: true } : {}),
      };
    }
  }
}

function toImage(mimeType: string, data: string): Anthropic.ImageBlockParam {
  if (!isImageType(mimeType)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Claude does not accept images of type ${mimeType}`,
    );
  }
  return { type: 'image', source: { type: 'base64', media_type: mimeType, data } };
}

function toAnthropicTool(tool: Tool): Anthropic.Tool {
  return {
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    input_schema: tool.inputSchema,
  };
}

function fromAnthropicBlock(block: Anthropic.ContentBlock): SamplingBlock[] {
  if (block.type === 'text') return [{ type: 'text', text: block.text }];
  if (block.type === 'tool_use') {
    const input =
      typeof block.input === 'object' && block.input !== null && !Array.isArray(block.input)
        ? (block.input as Record<string, unknown>)
        : {};
    return [{ type: 'tool_use', id: block.id, name: block.name, input }];
  }
  // Thinking and server-tool blocks are the provider's business, not the server's.
  return [];
}

function toMcpStopReason(reason: string | null): string {
  switch (reason) {
    case 'end_turn':
      return 'endTurn';
    case 'max_tokens':
      return 'maxTokens';
    case 'stop_sequence':
      return 'stopSequence';
    case 'tool_use':
      return 'toolUse';
    case null:
      return 'endTurn';
    default:
      return reason;
  }
}
