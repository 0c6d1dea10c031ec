import { z } from 'zod';
import { ChatBlockSchema, UsageSchema } from '../../../shared/model/chat.js';
import type { ChatBlock, ChatMessage, ConversationSummary } from '../../../shared/model/chat.js';
import { ConversationSettingsSchema } from '../../../shared/model/conversation-settings.js';
import type { ConversationSettings } from '../../../shared/model/conversation-settings.js';

/** The conversation store's rows and how they become the model the renderer sees. */

export interface ConversationRow {
  id: string;
  title: string;
  created_at: number;
  updated_at: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_tokens: number;
  cache_read_tokens: number;
  cost_usd: number;
  thinking_tokens: number;
  settings: string | null;
  message_count: number;
  snippet?: string | null;
}

export interface MessageRow {
  id: string;
  conversation_id: string;
  turn_id: string;
  role: string;
  blocks: string;
  created_at: number;
  stop_reason: string | null;
  usage: string | null;
  model: string | null;
  parent_id: string | null;
  seq: number;
}

export const BlocksSchema = z.array(ChatBlockSchema);
const RoleSchema = z.enum(['user', 'assistant', 'tool', 'notice']);

export function toSummary(row: ConversationRow): ConversationSummary {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    messageCount: row.message_count,
    usage: {
      inputTokens: row.input_tokens,
      outputTokens: row.output_tokens,
      cacheCreationInputTokens: row.cache_creation_tokens,
      cacheReadInputTokens: row.cache_read_tokens,
      costUsd: row.cost_usd,
      ...(row.thinking_tokens > 0 ? { thinkingTokens: row.thinking_tokens } : {}),
    },
    ...(row.snippet ? { snippet: row.snippet } : {}),
    ...settingsOf(row.settings),
  };
}

/** Stored settings that no longer parse are dropped rather than breaking the conversation. */
function settingsOf(json: string | null): { settings?: ConversationSettings } {
  if (json === null) return {};
  try {
    const parsed = ConversationSettingsSchema.safeParse(JSON.parse(json));
    return parsed.success ? { settings: parsed.data } : {};
  } catch {
    return {};
  }
}

export function toMessage(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    turnId: row.turn_id,
    role: RoleSchema.parse(row.role),
    blocks: BlocksSchema.parse(JSON.parse(row.blocks)),
    createdAt: row.created_at,
    ...(row.stop_reason !== null ? { stopReason: row.stop_reason } : {}),
    ...(row.usage !== null ? { usage: UsageSchema.parse(JSON.parse(row.usage)) } : {}),
    ...(row.model !== null ? { model: row.model } : {}),
    ...(row.parent_id !== null ? { parentId: row.parent_id } : {}),
  };
}

/** The words a message can be found by: its text, tool names and textual tool results (bounded). */
export function searchText(blocks: ChatBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === 'text' || block.type === 'notice') parts.push(block.text);
    else if (block.type === 'document') parts.push(block.name);
    else if (block.type === 'tool_use') parts.push(`${block.server} ${block.tool}`);
    else if (block.type === 'tool_result' || block.type === 'task_result') {
      for (const c of block.content) if (c.type === 'text') parts.push(c.text.slice(0, 20_000));
    }
  }
  return parts.join('\n');
}

/** Each word becomes a quoted prefix term, so user input can never be FTS5 syntax. */
export function ftsQuery(text: string): string {
  return text
    .split(/\s+/)
    .filter((w) => w !== '')
    .slice(0, 16)
    .map((w) => `"${w.replace(/"/g, '""')}"*`)
    .join(' ');
}
