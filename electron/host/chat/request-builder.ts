import { z } from 'zod';
import type {
  ChatBlock,
  ChatMessage,
  ContextPart,
  DocumentChatBlock,
  ToolResultChatBlock,
} from '../../../shared/model/chat.js';
import type { ServerSnapshot } from '../../../shared/model/server.js';
import { SEARCH_TOOL } from './tool-offer.js';
import { API_TOOL_NAME, ToolNameTable } from './tool-names.js';
import { taskResultParts, toApiToolResult } from './tool-result-mapping.js';
import type {
  WireBlock,
  WireCompaction,
  WireDocument,
  WireImage,
  WireMessage,
  WireText,
} from './wire-types.js';

const BASE_SYSTEM_PROMPT = `You are Claude, working inside a desktop MCP host. You can use the tools of the Model Context Protocol servers the user has connected; each tool name starts with its server's name. Every tool call is shown to the user, who may allow or decline it. If a call is declined, do not retry it unchanged; ask the user or continue without it.`;

const SEARCH_HINT = `Most tools are not loaded yet: search for the tools you need with the tool search tool (by what they do, or by server name) before you answer that a tool is missing.`;

export interface SystemOptions {
  /** The person's own instructions for this conversation. */
  userPrompt?: string | undefined;
  /** Tool search is on: tell Claude to search. */
  search?: boolean;
  /** The skills this conversation offers (chat/skill-offer.ts), already within their budget. */
  skills?: string | undefined;
}

/**
 * The system prompt: ours, then each connected server's `instructions`,
 * labelled with the server's name (they are the server's words, not the
 * user's), then the person's instructions for this conversation. One cache
 * breakpoint at its end.
 */
export function buildSystem(servers: readonly ServerSnapshot[], options: SystemOptions = {}): WireText[] {
  const parts = [options.search === true ? `${BASE_SYSTEM_PROMPT}\n\n${SEARCH_HINT}` : BASE_SYSTEM_PROMPT];
  const instructions: string[] = [];
  for (const server of servers) {
    const text = server.instructions?.trim();
    if (server.status !== 'connected' || !text) continue;
    instructions.push(`<server_instructions server="${server.name}">\n${text}\n</server_instructions>`);
  }
  if (instructions.length > 0) {
    parts.push(
      'Instructions published by the connected MCP servers (written by each server, not by the user):',
      ...instructions,
    );
  }
  if (options.skills !== undefined) parts.push(options.skills);
  const own = options.userPrompt?.trim();
  if (own) parts.push(`Instructions from the user for this conversation:\n${own}`);
  return [{ type: 'text', text: parts.join('\n\n'), cache_control: { type: 'ephemeral' } }];
}

export interface HistoryOptions {
  /** Tool search is on in this request: past searches go back as the API wrote them. */
  search?: boolean;
  /** Thinking is off in this request (or refused by the endpoint): drop stored thinking blocks. */
  dropThinking?: boolean;
  /** Compaction blocks go only to the beta endpoint; without it they are left out. */
  compaction?: boolean;
  /**
   * Keep only this many of the latest tool results whole; older ones are
   * replaced by a line saying they were cleared (the host's own last resort
   * when the API cannot clear or compact a conversation that no longer fits).
   */
  keepToolResults?: number;
}

const CLEARED_RESULT = '[This old tool result was cleared by the host to fit the context window.]';

/**
 * The history without the questions of interrupted turns that the person
 * moved on from: a user message whose turn the host never finished (an
 * "interrupted" notice follows it) and after which the person sent a new
 * message is left out, so Claude is not handed two questions as one. Until
 * a new message follows, it stays (Retry answers it).
 */
export function withoutAbandoned(history: readonly ChatMessage[]): ChatMessage[] {
  const dropped = new Set<number>();
  history.forEach((message, index) => {
    const interrupted = message.blocks.some((b) => b.type === 'notice' && b.kind === 'interrupted');
    if (message.role !== 'notice' || !interrupted) return;
    if (!history.slice(index + 1).some((m) => m.role === 'user')) return;
    for (let i = index - 1; i >= 0; i--) {
      const earlier = history[i];
      if (earlier?.role === 'notice') continue;
      if (earlier?.role !== 'user') break;
      dropped.add(i);
    }
  });
  return history.filter((_, index) => !dropped.has(index));
}

/**
 * The stored conversation as API messages. Tool results travel as user
 * content; consecutive messages of one role are merged (the questions of an
 * abandoned interrupted turn are left out first, see withoutAbandoned); a
 * tool_use that has no result (the host was killed while it ran) gets an
 * "interrupted" error result so the history stays valid. Thinking, tool
 * searches and compaction summaries go back exactly as the API returned them
 * (when this request can carry them). The last block carries a cache breakpoint.
 */
export function buildMessages(
  history: readonly ChatMessage[],
  table: ToolNameTable,
  options: HistoryOptions = {},
): WireMessage[] {
  const out: WireMessage[] = [];
  const push = (role: 'user' | 'assistant', content: (WireBlock | WireCompaction)[]) => {
    if (content.length === 0) return;
    const previous = out.at(-1);
    if (previous?.role === role) previous.content.push(...content);
    else out.push({ role, content });
  };
  let open: { id: string; server: string; tool: string }[] = [];
  const closeOpen = () => {
    if (open.length > 0)
      push(
        'user',
        open.map((t) => toApiToolResult(interrupted(t.id, t.server, t.tool))),
      );
    open = [];
  };

  const kept = withoutAbandoned(history);
  const clearBefore = clearingPoint(kept, options.keepToolResults);
  let resultIndex = 0;
  for (const message of kept) {
    if (message.role === 'notice') continue;
    if (message.role === 'tool' && message.blocks.some((b) => b.type === 'task_result')) {
      // The end of a task an earlier call started: user content naming the call and the task.
      closeOpen();
      for (const block of message.blocks)
        if (block.type === 'task_result') push('user', taskResultParts(block));
      continue;
    }
    if (message.role === 'tool') {
      // Each result is committed as its own message as soon as it is known.
      const results = message.blocks.filter(
        (b): b is ToolResultChatBlock => b.type === 'tool_result' && open.some((t) => t.id === b.toolUseId),
      );
      push(
        'user',
        results.map((r) =>
          toApiToolResult(
            resultIndex++ < clearBefore ? { ...r, content: [{ type: 'text', text: CLEARED_RESULT }] } : r,
          ),
        ),
      );
      const done = new Set(results.map((r) => r.toolUseId));
      open = open.filter((t) => !done.has(t.id));
      continue;
    }
    closeOpen();
    if (message.role === 'user') {
      // An inserted prompt's assistant messages go out as assistant turns: the prompt's roles hold.
      for (const block of message.blocks) {
        if (block.type === 'text' && block.text !== '') push('user', [{ type: 'text', text: block.text }]);
        else if (block.type === 'image') push('user', [imageParam(block)]);
        else if (block.type === 'document') push('user', [documentParam(block)]);
        else if (block.type === 'resource_context') push('user', block.content.map(contextParam));
        else if (block.type === 'prompt_message') push(block.role, block.content.map(contextParam));
      }
      continue;
    }
    const content: (WireBlock | WireCompaction)[] = [];
    for (const block of message.blocks) {
      const wire = assistantBlock(block, table, options);
      content.push(...wire);
      if (block.type === 'tool_use') open.push({ id: block.id, server: block.server, tool: block.tool });
    }
    push('assistant', content);
  }
  closeOpen();
  markLastForCache(out);
  return out;
}

/** How many of the history's tool results (oldest first) are cleared to keep the last `keep`. */
function clearingPoint(history: readonly ChatMessage[], keep: number | undefined): number {
  if (keep === undefined) return 0;
  let results = 0;
  for (const message of history) {
    if (message.role === 'tool') results += message.blocks.filter((b) => b.type === 'tool_result').length;
  }
  return Math.max(0, results - keep);
}

function assistantBlock(
  block: ChatBlock,
  table: ToolNameTable,
  options: HistoryOptions,
): (WireBlock | WireCompaction)[] {
  switch (block.type) {
    case 'text':
      return block.text !== '' ? [{ type: 'text', text: block.text }] : [];
    case 'thinking':
      return options.dropThinking === true
        ? []
        : [{ type: 'thinking', thinking: block.thinking, signature: block.signature }];
    case 'redacted_thinking':
      return options.dropThinking === true ? [] : [{ type: 'redacted_thinking', data: block.data }];
    case 'tool_use': {
      const ref = { server: block.server, tool: block.tool };
      // A host tool (load_skill) has no server; its name is its own.
      const own = block.server === '' && API_TOOL_NAME.test(block.tool) ? block.tool : undefined;
      return [
        {
          type: 'tool_use',
          id: block.id,
          name: table.apiName(ref) ?? own ?? new ToolNameTable([ref]).apiName(ref) ?? 'tool',
          input: parseInput(block.inputJson),
        },
      ];
    }
    case 'tool_search': {
      // Only with the search tool in this request; references to tools no longer offered are dropped
      // (the API refuses a reference to a tool it does not know).
      if (options.search !== true) return [];
      const references = block.found.flatMap((ref) => {
        const name = table.apiName(ref);
        return name !== undefined ? [{ type: 'tool_reference' as const, tool_name: name }] : [];
      });
      return [
        { type: 'server_tool_use', id: block.id, name: SEARCH_TOOL.name, input: parseInput(block.inputJson) },
        {
          type: 'tool_search_tool_result',
          tool_use_id: block.id,
          content:
            block.error !== undefined
              ? { type: 'tool_search_tool_result_error', error_code: 'unavailable' }
              : { type: 'tool_search_tool_search_result', tool_references: references },
        },
      ];
    }
    case 'compaction':
      return options.compaction === true ? [compactionParam(block.raw)] : [];
    default:
      return [];
  }
}

function imageParam(block: { mimeType: string; data: string }): WireImage {
  return {
    type: 'image',
    source: {
      type: 'base64',
      media_type: block.mimeType as 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp',
      data: block.data,
    },
  };
}

function documentParam(block: DocumentChatBlock): WireDocument {
  if (block.data !== undefined) {
    return {
      type: 'document',
      title: block.name,
      source: { type: 'base64', media_type: 'application/pdf', data: block.data },
    };
  }
  return {
    type: 'document',
    title: block.name,
    source: { type: 'text', media_type: 'text/plain', data: block.text ?? '' },
  };
}

const StoredCompaction = z.object({
  content: z.string().nullable().optional(),
  encrypted_content: z.string().nullable().optional(),
  signature: z.string().nullable().optional(),
});

/** The compaction block as the API returned it; its fields are opaque and go back unchanged. */
function compactionParam(raw: string): WireCompaction {
  const { content, encrypted_content, signature } = StoredCompaction.parse(JSON.parse(raw));
  return {
    type: 'compaction',
    ...(content !== undefined ? { content } : {}),
    ...(encrypted_content !== undefined ? { encrypted_content } : {}),
    ...(signature !== undefined ? { signature } : {}),
  };
}

function contextParam(part: ContextPart): WireText | WireImage {
  return part.type === 'text' ? { type: 'text', text: part.text } : imageParam(part);
}

function interrupted(toolUseId: string, server: string, tool: string): ToolResultChatBlock {
  return {
    type: 'tool_result',
    toolUseId,
    server,
    tool,
    status: 'cancelled',
    isError: true,
    content: [{ type: 'text', text: 'The tool call was interrupted before it returned a result.' }],
  };
}

function parseInput(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function markLastForCache(messages: WireMessage[]): void {
  const last = messages.at(-1);
  const block = last?.content.at(-1);
  if (
    block &&
    (block.type === 'text' ||
      block.type === 'tool_result' ||
      block.type === 'image' ||
      block.type === 'document')
  ) {
    block.cache_control = { type: 'ephemeral' };
  }
}
