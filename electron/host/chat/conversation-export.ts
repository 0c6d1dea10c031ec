import { constants } from 'node:fs';
import { access, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { ChatBlock, ChatMessage, ConversationDetail } from '../../../shared/model/chat.js';
import { formatFileSize } from '../../../shared/model/attachments.js';
import { HostError, describeError } from '../errors.js';

export type ExportFormat = 'markdown' | 'json';

/** Where an export goes when the person names no folder: Downloads if there is one, else home. */
export async function defaultExportFolder(): Promise<string> {
  const downloads = join(homedir(), 'Downloads');
  try {
    if ((await stat(downloads)).isDirectory()) return downloads;
  } catch {
    // No Downloads folder: home it is.
  }
  return homedir();
}

/**
 * Writes the branch of the conversation it shows as Markdown (for reading)
 * or JSON (everything, for keeping) into `folder`, never over an existing
 * file, and returns the path. A folder that is not absolute, does not exist
 * or cannot be written is one clear error; nothing is written then.
 */
export async function writeConversationExport(
  detail: Pick<ConversationDetail, 'conversation' | 'messages'>,
  format: ExportFormat,
  folder?: string,
): Promise<{ path: string }> {
  const dir = folder !== undefined && folder !== '' ? folder : await defaultExportFolder();
  if (!isAbsolute(dir)) throw new HostError('invalid_params', `The folder must be an absolute path: ${dir}`);
  try {
    if (!(await stat(dir)).isDirectory()) throw new HostError('invalid_params', `${dir} is not a folder`);
    await access(dir, constants.W_OK);
  } catch (error) {
    if (error instanceof HostError) throw error;
    throw new HostError('invalid_params', `Cannot write to ${dir}: ${describeError(error)}`);
  }
  const text = format === 'markdown' ? toMarkdown(detail) : toJson(detail);
  const base = fileBase(detail.conversation.title);
  const ext = format === 'markdown' ? 'md' : 'json';
  for (let n = 1; n < 1000; n++) {
    const path = join(dir, `${base}${n === 1 ? '' : ` (${String(n)})`}.${ext}`);
    try {
      await writeFile(path, text, { flag: 'wx', mode: 0o600 });
      return { path };
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'EEXIST') continue;
      throw new HostError('invalid_params', `Cannot write to ${dir}: ${describeError(error)}`);
    }
  }
  throw new HostError('conflict', `Too many exports named "${base}" in ${dir}`);
}

/** A file name from the title: no path separators or characters filesystems refuse. */
function fileBase(title: string): string {
  const cleaned = Array.from(title, (ch) => (ch.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(ch) ? ' ' : ch))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'conversation' : cleaned;
}

function toJson(detail: Pick<ConversationDetail, 'conversation' | 'messages'>): string {
  return `${JSON.stringify(
    {
      format: 'mcp-host-conversation',
      version: 1,
      exportedAt: new Date().toISOString(),
      conversation: detail.conversation,
      messages: detail.messages,
    },
    null,
    2,
  )}\n`;
}

const ROLE_TITLE: Record<ChatMessage['role'], string> = {
  user: 'You',
  assistant: 'Claude',
  tool: 'Tool results',
  notice: 'Host',
};

function toMarkdown(detail: Pick<ConversationDetail, 'conversation' | 'messages'>): string {
  const { conversation, messages } = detail;
  const out = [
    `# ${conversation.title}`,
    '',
    `_Exported from MCP Host on ${new Date().toISOString()} · ${String(messages.length)} messages · ${conversation.usage.inputTokens.toLocaleString('en-US')} input and ${conversation.usage.outputTokens.toLocaleString('en-US')} output tokens_`,
  ];
  for (const message of messages) {
    const body = message.blocks.map(blockMarkdown).filter((b) => b !== '');
    if (body.length === 0) continue;
    out.push('', `## ${ROLE_TITLE[message.role]}`, '', body.join('\n\n'));
  }
  return `${out.join('\n')}\n`;
}

function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

function blockMarkdown(block: ChatBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'notice':
      return `> ${block.text}`;
    case 'thinking':
      return `<details><summary>Thinking</summary>\n\n${block.thinking}\n\n</details>`;
    case 'redacted_thinking':
      return '_(Thinking, redacted by the API)_';
    case 'tool_search':
      return `_Searched the tools${block.found.length > 0 ? `: loaded ${block.found.map((f) => `\`${f.server}/${f.tool}\``).join(', ')}` : ''}_`;
    case 'tool_use':
      return `**Tool call** \`${block.server}/${block.tool}\`${block.foundBySearch === true ? ' (found by search)' : ''}\n\n${fence(block.inputJson, 'json')}`;
    case 'tool_result': {
      const text = block.content.flatMap((c) => (c.type === 'text' ? [c.text] : [`[${c.type}]`])).join('\n');
      return `**Result of** \`${block.server}/${block.tool}\` (${block.status})\n\n${fence(text)}`;
    }
    case 'task_result': {
      const text = block.content.flatMap((c) => (c.type === 'text' ? [c.text] : [`[${c.type}]`])).join('\n');
      return `**Result of task** \`${block.taskId}\` of \`${block.server}/${block.tool}\` (${block.status})\n\n${fence(text)}`;
    }
    case 'image':
      return `_[Image${block.name !== undefined ? `: ${block.name}` : ''} (${block.mimeType})]_`;
    case 'document':
      return `_[Attached file: ${block.name} (${block.mimeType}, ${formatFileSize(block.bytes)})]_`;
    case 'resource_context':
      return `_[Attached resource ${block.uri} from ${block.server}]_`;
    case 'prompt_message':
      return `_[Prompt /${block.prompt} from ${block.server} (${block.role})]_\n\n${block.content
        .flatMap((c) => (c.type === 'text' ? [c.text] : []))
        .join('\n\n')}`;
    case 'compaction':
      return `> The conversation was compacted here.${block.summary !== null ? `\n>\n> ${block.summary.replace(/\n/g, '\n> ')}` : ''}`;
  }
}
