import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage, ContextPart, ToolResultChatBlock } from '../../../shared/model/chat.js';
import type { ServerSnapshot } from '../../../shared/model/server.js';
import { ToolNameTable } from './tool-names.js';
import type { ToolRef } from './tool-names.js';
import { toApiToolResult } from './tool-result-mapping.js';

const BASE_SYSTEM_PROMPT = `You are Claude, working inside a desktop MCP host. You can use the tools of the Model Context Protocol servers the user has connected; each tool name starts with its server's name. Every tool call is shown to the user, who may allow or decline it. If a call is declined, do not retry it unchanged; ask the user or continue without it.`;

/** The tools of connected servers that may be offered: skips disabled servers and disabled tools. */
export function offerableTools(
  servers: readonly ServerSnapshot[],
): { ref: ToolRef; server: ServerSnapshot }[] {
  const out: { ref: ToolRef; server: ServerSnapshot }[] = [];
  for (const server of servers) {
    if (server.status !== 'connected') continue;
    for (const tool of server.tools) {
      if (tool.disabled === true) continue;
      out.push({ ref: { server: server.name, tool: tool.name }, server });
    }
  }
  return out;
}

export interface ToolSet {
  table: ToolNameTable;
  tools: Tool[];
}

/** API tool definitions for the offerable tools; the last carries a cache breakpoint. */
export function buildTools(servers: readonly ServerSnapshot[]): ToolSet {
  const offer = offerableTools(servers);
  const table = new ToolNameTable(offer.map((o) => o.ref));
  const tools: Tool[] = [];
  for (const { ref, server } of offer) {
    const info = server.tools.find((t) => t.name === ref.tool);
    const name = table.apiName(ref);
    if (!info || name === undefined) continue;
    const label = info.title ?? info.annotations?.title;
    tools.push({
      name,
      description:
        `[MCP server "${ref.server}", tool "${ref.tool}"${label ? `: ${label}` : ''}] ${info.description ?? ''}`.trim(),
      input_schema: { ...info.inputSchema, type: 'object' },
    });
  }
  const last = tools.at(-1);
  if (last) last.cache_control = { type: 'ephemeral' };
  return { table, tools };
}

/**
 * The system prompt: ours, then each connected server's `instructions`,
 * labelled with the server's name (they are the server's words, not the
 * user's). One cache breakpoint at its end.
 */
export function buildSystem(servers: readonly ServerSnapshot[]): TextBlockParam[] {
  const parts = [BASE_SYSTEM_PROMPT];
  for (const server of servers) {
    const text = server.instructions?.trim();
    if (server.status !== 'connected' || !text) continue;
    parts.push(`<server_instructions server="${server.name}">\n${text}\n</server_instructions>`);
  }
  if (parts.length > 1) {
    parts.splice(
      1,
      0,
      'Instructions published by the connected MCP servers (written by each server, not by the user):',
    );
  }
  return [{ type: 'text', text: parts.join('\n\n'), cache_control: { type: 'ephemeral' } }];
}

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
 * "interrupted" error result so the history stays valid. The last block
 * carries a cache breakpoint.
 */
export function buildMessages(history: readonly ChatMessage[], table: ToolNameTable): MessageParam[] {
  const out: MessageParam[] = [];
  const push = (role: 'user' | 'assistant', content: ContentBlockParam[]) => {
    if (content.length === 0) return;
    const previous = out.at(-1);
    if (previous?.role === role && Array.isArray(previous.content)) previous.content.push(...content);
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

  for (const message of withoutAbandoned(history)) {
    if (message.role === 'notice') continue;
    if (message.role === 'tool') {
      // Each result is committed as its own message as soon as it is known.
      const results = message.blocks.filter(
        (b): b is ToolResultChatBlock => b.type === 'tool_result' && open.some((t) => t.id === b.toolUseId),
      );
      push('user', results.map(toApiToolResult));
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
        else if (block.type === 'resource_context') push('user', block.content.map(contextParam));
        else if (block.type === 'prompt_message') push(block.role, block.content.map(contextParam));
      }
      continue;
    }
    const content: ContentBlockParam[] = [];
    for (const block of message.blocks) {
      if (block.type === 'text' && block.text !== '') content.push({ type: 'text', text: block.text });
      if (block.type === 'tool_use') {
        const ref = { server: block.server, tool: block.tool };
        content.push({
          type: 'tool_use',
          id: block.id,
          name: table.apiName(ref) ?? new ToolNameTable([ref]).apiName(ref) ?? 'tool',
          input: parseInput(block.inputJson),
        });
        open.push({ id: block.id, server: block.server, tool: block.tool });
      }
    }
    push('assistant', content);
  }
  closeOpen();
  markLastForCache(out);
  return out;
}

function imageParam(block: { mimeType: string; data: string }): ImageBlockParam {
  return {
    type: 'image',
    source: {
      type: 'base64',
      media_type: block.mimeType as 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp',
      data: block.data,
    },
  };
}

function contextParam(part: ContextPart): TextBlockParam | ImageBlockParam {
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

function markLastForCache(messages: MessageParam[]): void {
  const last = messages.at(-1);
  if (!last || !Array.isArray(last.content)) return;
  const block = last.content.at(-1);
  if (block && (block.type === 'text' || block.type === 'tool_result' || block.type === 'image')) {
    block.cache_control = { type: 'ephemeral' };
  }
}
