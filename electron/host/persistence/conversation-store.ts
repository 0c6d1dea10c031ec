import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ConversationSettings } from '../../../shared/model/conversation-settings.js';
import type {
  ChatBlock,
  ChatMessage,
  ChatRole,
  ConversationSummary,
  FullToolResult,
  Usage,
} from '../../../shared/model/chat.js';
import { ContentBlockSchema } from '../../../shared/model/server.js';
import type { ContentBlock } from '../../../shared/model/server.js';
import { HostError } from '../errors.js';
import { ZERO_USAGE } from '../../../shared/model/usage.js';
import type { Db } from './database.js';
import { branchInfo, childrenOf, newestLeaf, pathTo } from './conversation-branches.js';
import type { BranchRow } from './conversation-branches.js';
import { BlocksSchema, ftsQuery, searchText, toMessage, toSummary } from './conversation-rows.js';
import type { ConversationRow, MessageRow } from './conversation-rows.js';

/** A message to commit; the store gives it an id (unless set) and a time. */
export interface NewMessage {
  id?: string;
  turnId: string;
  role: ChatRole;
  blocks: ChatBlock[];
  stopReason?: string;
  usage?: Usage;
  model?: string;
  /**
   * The message this one follows: by default the end of the branch shown
   * (the head); an edit or a regenerated answer names an earlier message and
   * so starts a new branch. The new message becomes the head either way.
   */
  parentId?: string | null;
}

/** The full content of a tool result kept aside when its chat block is truncated. */
export interface StoredFullResult {
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: string;
}

const SUMMARY_COLUMNS = `c.id, c.title, c.created_at, c.updated_at, c.input_tokens, c.output_tokens,
  c.cache_creation_tokens, c.cache_read_tokens, c.cost_usd, c.thinking_tokens, c.settings,
  (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id) AS message_count`;

/**
 * Conversations and their messages in SQLite. Each `addMessage` is one
 * transaction, committed before it returns: the chat loop calls it before
 * taking the next step, so a killed host loses at most the message that was
 * still streaming.
 */
export class ConversationStore {
  constructor(private readonly db: Db) {}

  create(title = 'New conversation'): ConversationSummary {
    const id = randomUUID();
    const now = Date.now();
    this.db
      .prepare('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)')
      .run(id, title, now, now);
    return this.get(id);
  }

  get(id: string): ConversationSummary {
    const row = this.db
      .prepare<[string], ConversationRow>(`SELECT ${SUMMARY_COLUMNS} FROM conversations c WHERE c.id = ?`)
      .get(id);
    if (!row) throw new HostError('not_found', 'No such conversation');
    return toSummary(row);
  }

  /** Newest first. A query matches titles (substring) and message text (full-text, prefix per word). */
  list(query?: string): ConversationSummary[] {
    const trimmed = query?.trim() ?? '';
    if (trimmed === '') {
      return this.db
        .prepare<[], ConversationRow>(
          `SELECT ${SUMMARY_COLUMNS} FROM conversations c ORDER BY c.updated_at DESC`,
        )
        .all()
        .map(toSummary);
    }
    const snippets = new Map<string, string>();
    const hits = this.db
      .prepare<[string], { cid: string; snippet: string }>(
        `SELECT m.conversation_id AS cid, snippet(messages_fts, 0, '', '', '…', 12) AS snippet
         FROM messages_fts JOIN messages m ON m.seq = messages_fts.rowid
         WHERE messages_fts MATCH ? ORDER BY m.seq DESC LIMIT 5000`,
      )
      .all(ftsQuery(trimmed));
    for (const hit of hits) if (!snippets.has(hit.cid)) snippets.set(hit.cid, hit.snippet);
    const titled = this.db
      .prepare<[string], { id: string }>("SELECT id FROM conversations WHERE title LIKE ? ESCAPE '\\'")
      .all(`%${trimmed.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`)
      .map((row) => row.id);
    const ids = new Set([...snippets.keys(), ...titled]);
    return [...ids]
      .map((id) => {
        const summary = this.get(id);
        const snippet = snippets.get(id);
        return snippet !== undefined ? { ...summary, snippet } : summary;
      })
      .sort((x, y) => y.updatedAt - x.updatedAt);
  }

  rename(id: string, title: string): ConversationSummary {
    const changed = this.db
      .prepare('UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?')
      .run(title, Date.now(), id);
    if (changed.changes === 0) throw new HostError('not_found', 'No such conversation');
    return this.get(id);
  }

  delete(id: string): void {
    const changed = this.db.prepare('DELETE FROM conversations WHERE id = ?').run(id);
    if (changed.changes === 0) throw new HostError('not_found', 'No such conversation');
  }

  /** The messages of the branch the conversation shows, oldest first (other branches stay stored). */
  messages(conversationId: string): ChatMessage[] {
    const rows = this.db
      .prepare<[string], MessageRow>(
        `SELECT id, conversation_id, turn_id, role, blocks, created_at, stop_reason, usage, model, parent_id, seq
         FROM messages WHERE conversation_id = ? ORDER BY seq`,
      )
      .all(conversationId);
    if (rows.length === 0) return [];
    const branchRows: BranchRow[] = rows.map((r) => ({ id: r.id, parent: r.parent_id, seq: r.seq }));
    const children = childrenOf(branchRows);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return pathTo(branchRows, this.head(conversationId)).flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      const branch = branchInfo(row.id, row.parent_id, children);
      return [branch ? { ...toMessage(row), branch } : toMessage(row)];
    });
  }

  /** One stored message of this conversation, on any branch. */
  message(conversationId: string, messageId: string): ChatMessage {
    const row = this.db
      .prepare<[string, string], MessageRow>(
        `SELECT id, conversation_id, turn_id, role, blocks, created_at, stop_reason, usage, model, parent_id, seq
         FROM messages WHERE conversation_id = ? AND id = ?`,
      )
      .get(conversationId, messageId);
    if (!row) throw new HostError('not_found', 'No such message in this conversation');
    return toMessage(row);
  }

  /** Shows the branch `messageId` is on, at its newest message. */
  switchBranch(conversationId: string, messageId: string): void {
    this.message(conversationId, messageId);
    const rows = this.db
      .prepare<[string], { id: string; parent_id: string | null; seq: number }>(
        'SELECT id, parent_id, seq FROM messages WHERE conversation_id = ? ORDER BY seq',
      )
      .all(conversationId)
      .map((r) => ({ id: r.id, parent: r.parent_id, seq: r.seq }));
    const head = newestLeaf(messageId, childrenOf(rows));
    this.db.prepare('UPDATE conversations SET head_id = ? WHERE id = ?').run(head, conversationId);
  }

  /** The conversation's own settings (model, system prompt, thinking, active servers and tools). */
  setSettings(id: string, settings: ConversationSettings): ConversationSummary {
    const changed = this.db
      .prepare('UPDATE conversations SET settings = ?, updated_at = ? WHERE id = ?')
      .run(JSON.stringify(settings), Date.now(), id);
    if (changed.changes === 0) throw new HostError('not_found', 'No such conversation');
    return this.get(id);
  }

  private head(conversationId: string): string | null {
    return (
      this.db
        .prepare<[string], { head_id: string | null }>('SELECT head_id FROM conversations WHERE id = ?')
        .get(conversationId)?.head_id ?? null
    );
  }

  /**
   * Commits one completed message (and, for truncated tool results, their
   * full content) in a single transaction, adding its usage to the totals.
   */
  addMessage(conversationId: string, input: NewMessage, fullResults: StoredFullResult[] = []): ChatMessage {
    const parentId = input.parentId !== undefined ? input.parentId : this.head(conversationId);
    const message: ChatMessage = {
      id: input.id ?? randomUUID(),
      conversationId,
      turnId: input.turnId,
      role: input.role,
      blocks: input.blocks,
      createdAt: Date.now(),
      ...(input.stopReason !== undefined ? { stopReason: input.stopReason } : {}),
      ...(input.usage !== undefined ? { usage: input.usage } : {}),
      ...(input.model !== undefined ? { model: input.model } : {}),
      ...(parentId !== null ? { parentId } : {}),
    };
    const usage = input.usage ?? ZERO_USAGE;
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO messages (id, conversation_id, turn_id, role, blocks, created_at, stop_reason, usage, model, search_text, parent_id)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          message.id,
          conversationId,
          message.turnId,
          message.role,
          JSON.stringify(message.blocks),
          message.createdAt,
          message.stopReason ?? null,
          input.usage ? JSON.stringify(input.usage) : null,
          message.model ?? null,
          searchText(message.blocks),
          parentId,
        );
      for (const full of fullResults) {
        this.db
          .prepare(
            'INSERT OR REPLACE INTO tool_results (tool_use_id, conversation_id, content, structured_content) VALUES (?, ?, ?, ?)',
          )
          .run(full.toolUseId, conversationId, JSON.stringify(full.content), full.structuredContent ?? null);
      }
      const updated = this.db
        .prepare(
          `UPDATE conversations SET updated_at = ?, head_id = ?, input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
             cache_creation_tokens = cache_creation_tokens + ?, cache_read_tokens = cache_read_tokens + ?,
             cost_usd = cost_usd + ?, thinking_tokens = thinking_tokens + ? WHERE id = ?`,
        )
        .run(
          message.createdAt,
          message.id,
          usage.inputTokens,
          usage.outputTokens,
          usage.cacheCreationInputTokens,
          usage.cacheReadInputTokens,
          usage.costUsd,
          usage.thinkingTokens ?? 0,
          conversationId,
        );
      if (updated.changes === 0) throw new HostError('not_found', 'No such conversation');
    })();
    const branch = this.siblingsOf(conversationId, message.id, parentId);
    return branch ? { ...message, branch } : message;
  }

  private siblingsOf(conversationId: string, id: string, parentId: string | null): ChatMessage['branch'] {
    const siblings = this.db
      .prepare<[string, string | null], { id: string }>(
        'SELECT id FROM messages WHERE conversation_id = ? AND parent_id IS ? ORDER BY seq',
      )
      .all(conversationId, parentId)
      .map((r) => r.id);
    return siblings.length > 1
      ? { index: siblings.indexOf(id) + 1, count: siblings.length, siblingIds: siblings }
      : undefined;
  }

  /** Records the turn now running in a conversation (null when it ended). */
  setRunningTurn(conversationId: string, turnId: string | null): void {
    this.db.prepare('UPDATE conversations SET running_turn = ? WHERE id = ?').run(turnId, conversationId);
  }

  /** Turns recorded as running: at startup, those a previous host never finished. */
  runningTurns(): { conversationId: string; turnId: string }[] {
    return this.db
      .prepare<[], { id: string; running_turn: string }>(
        'SELECT id, running_turn FROM conversations WHERE running_turn IS NOT NULL',
      )
      .all()
      .map((row) => ({ conversationId: row.id, turnId: row.running_turn }));
  }

  fullToolResult(toolUseId: string): FullToolResult {
    const row = this.db
      .prepare<[string], { content: string; structured_content: string | null }>(
        'SELECT content, structured_content FROM tool_results WHERE tool_use_id = ?',
      )
      .get(toolUseId);
    if (row) {
      return {
        toolUseId,
        content: z.array(ContentBlockSchema).parse(JSON.parse(row.content)),
        ...(row.structured_content !== null ? { structuredContent: row.structured_content } : {}),
      };
    }
    // Not truncated: the chat block itself holds all of it.
    const hit = this.db
      .prepare<[string], { blocks: string }>(
        `SELECT blocks FROM messages WHERE role = 'tool' AND instr(blocks, ?) > 0 ORDER BY seq DESC LIMIT 1`,
      )
      .get(toolUseId);
    const block = hit
      ? BlocksSchema.parse(JSON.parse(hit.blocks)).find(
          (b) => b.type === 'tool_result' && b.toolUseId === toolUseId,
        )
      : undefined;
    if (block?.type !== 'tool_result') throw new HostError('not_found', 'No such tool result');
    return {
      toolUseId,
      content: block.content,
      ...(block.structuredContent !== undefined ? { structuredContent: block.structuredContent } : {}),
    };
  }
}
