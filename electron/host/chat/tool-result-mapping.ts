import type { WireImage, WireText, WireToolResult } from './wire-types.js';
import type {
  TaskResultChatBlock,
  ToolResultChatBlock,
  ToolUseChatBlock,
} from '../../../shared/model/chat.js';
import type { ContentBlock } from '../../../shared/model/server.js';

/** Text beyond this (in characters) is cut before it reaches the model or the chat view. */
export const TOOL_RESULT_TEXT_CAP = 100_000;

const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
type ModelImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/**
 * Cuts the text of a tool result to the cap. Returns the content to keep in
 * the chat block (and send to the model) and, when it was cut, the total
 * size so the UI can offer "show all" (the full content is stored aside).
 */
export function capContent(content: ContentBlock[]): { content: ContentBlock[]; totalChars?: number } {
  const total = content.reduce((n, block) => n + textLength(block), 0);
  if (total <= TOOL_RESULT_TEXT_CAP) return { content };
  let budget = TOOL_RESULT_TEXT_CAP;
  const capped = content.map((block): ContentBlock => {
    if (block.type === 'text') {
      const kept = block.text.slice(0, Math.max(0, budget));
      budget -= kept.length;
      return { ...block, text: kept };
    }
    if (block.type === 'resource' && block.text !== undefined) {
      const kept = block.text.slice(0, Math.max(0, budget));
      budget -= kept.length;
      return { ...block, text: kept };
    }
    return block;
  });
  return { content: capped, totalChars: total };
}

function textLength(block: ContentBlock): number {
  if (block.type === 'text') return block.text.length;
  if (block.type === 'resource') return block.text?.length ?? 0;
  return 0;
}

/**
 * The tool_result the model gets for a stored chat block. Text and images go
 * as they are; kinds the Messages API cannot carry (audio, embedded
 * resources, resource links, structured content) become text that says what
 * they were, so the model knows they exist and what they hold.
 */
export function toApiToolResult(block: ToolResultChatBlock): WireToolResult {
  return {
    type: 'tool_result',
    tool_use_id: block.toolUseId,
    content: resultParts(block),
    ...(block.isError ? { is_error: true } : {}),
  };
}

/** A stored result's content as the model can take it (see toApiToolResult). */
function resultParts(
  block: Pick<
    ToolResultChatBlock,
    'status' | 'content' | 'structuredContent' | 'truncated' | 'sandboxBlocked'
  >,
): (WireText | WireImage)[] {
  const parts: (WireText | WireImage)[] = [];
  const text = (value: string) => parts.push({ type: 'text', text: value });
  for (const c of block.content) {
    switch (c.type) {
      case 'text':
        if (c.text !== '') text(c.text);
        break;
      case 'image':
        if (MODEL_IMAGE_TYPES.has(c.mimeType)) {
          parts.push({
            type: 'image',
            source: { type: 'base64', media_type: c.mimeType as ModelImageType, data: c.data },
          });
        } else {
          text(
            `[Image of type ${c.mimeType}, ${base64Bytes(c.data)} bytes, in a format the model cannot view]`,
          );
        }
        break;
      case 'audio':
        text(`[Audio clip: ${c.mimeType}, ${base64Bytes(c.data)} bytes; the model cannot listen to audio]`);
        break;
      case 'resource_link':
        text(
          `[Resource link: ${c.name ?? c.uri} <${c.uri}>${c.mimeType ? ` (${c.mimeType})` : ''}${
            c.description ? ` — ${c.description}` : ''
          }]`,
        );
        break;
      case 'resource':
        if (c.text !== undefined) {
          text(`[Embedded resource <${c.uri}>${c.mimeType ? ` (${c.mimeType})` : ''}]\n${c.text}`);
        } else {
          text(
            `[Embedded binary resource <${c.uri}>${c.mimeType ? ` (${c.mimeType})` : ''}, ${String(c.blobBytes ?? 0)} bytes, not shown]`,
          );
        }
        break;
      case 'unknown':
        text(`[Content of a kind this host does not know, as JSON]\n${c.json}`);
        break;
    }
  }
  if (block.structuredContent !== undefined) {
    const alreadyThere = block.content.some(
      (c) => c.type === 'text' && sameJson(c.text, block.structuredContent ?? ''),
    );
    if (!alreadyThere) text(`[Structured result (JSON)]\n${block.structuredContent}`);
  }
  if (block.truncated) {
    text(
      `[Notice from the host: this result was ${String(block.truncated.totalChars)} characters long and was cut to the first ${String(TOOL_RESULT_TEXT_CAP)}.]`,
    );
  }
  if (block.sandboxBlocked !== undefined && block.sandboxBlocked.length > 0) {
    text(
      `[Notice from the host: the server's OS sandbox blocked ${block.sandboxBlocked.join(', ')} while this call ran; the person can allow it in the server's Settings.]`,
    );
  }
  if (block.status === 'denied' && parts.length === 0) text('The user declined this tool call.');
  if (parts.length === 0) text('(The tool returned no content.)');
  return parts;
}

const TASK_END: Record<TaskResultChatBlock['status'], string> = {
  completed: 'completed',
  failed: 'failed',
  cancelled: 'was cancelled',
  lost: 'was lost',
};

/**
 * The end of a task, as user content for Claude: a line naming the tool
 * call that started it and the task, then its result mapped as a tool
 * result would be (or the one line saying why there is none).
 */
export function taskResultParts(block: TaskResultChatBlock): (WireText | WireImage)[] {
  const head =
    `[Task result from the host, not written by the user] Task "${block.taskId}" of tool "${block.tool}" ` +
    `(server "${block.server}"), started by your earlier tool call ${block.toolUseId}, ${TASK_END[block.status]}` +
    `${block.isError && block.status === 'completed' ? ' with an error' : ''}. ${block.status === 'completed' ? 'Its result:' : 'What the host knows:'}`;
  return [{ type: 'text', text: head }, ...resultParts({ ...block, status: block.isError ? 'error' : 'ok' })];
}

function sameJson(a: string, b: string): boolean {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return false;
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** One line about a result for the tool call's status in the UI. */
export function summarizeResult(block: ToolResultChatBlock): string {
  if (block.status === 'denied') return 'Declined by the user';
  if (block.status === 'cancelled') return 'Cancelled';
  const first = block.content.find((c) => c.type === 'text');
  const kinds = block.content.length;
  const head = first?.type === 'text' ? first.text.replace(/\s+/g, ' ').slice(0, 120) : '';
  return `${block.isError ? 'Error: ' : ''}${head || `${String(kinds)} content block${kinds === 1 ? '' : 's'}`}`;
}

/** How a call was allowed, kept on its result block and its updates. */
export type AllowedBy = Pick<ToolResultChatBlock, 'allowedBy' | 'rule'>;

/** What a tool call came to, before its text is capped. */
export type ToolOutcome = Pick<
  ToolResultChatBlock,
  'status' | 'isError' | 'content' | 'structuredContent' | 'durationMs' | 'sandboxBlocked' | 'taskId'
>;

/** The stored block of one tool result, with the content `capContent` kept. */
export function toResultBlock(
  use: ToolUseChatBlock,
  result: ToolOutcome,
  capped: { content: ContentBlock[]; totalChars?: number },
  allowed?: AllowedBy,
): ToolResultChatBlock {
  return {
    type: 'tool_result',
    toolUseId: use.id,
    server: use.server,
    tool: use.tool,
    status: result.status,
    isError: result.isError,
    content: capped.content,
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    ...(result.durationMs !== undefined ? { durationMs: result.durationMs } : {}),
    ...(capped.totalChars !== undefined ? { truncated: { totalChars: capped.totalChars } } : {}),
    ...(result.sandboxBlocked !== undefined ? { sandboxBlocked: result.sandboxBlocked } : {}),
    ...(result.taskId !== undefined ? { taskId: result.taskId } : {}),
    ...allowed,
  };
}
