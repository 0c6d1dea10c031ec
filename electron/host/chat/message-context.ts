import type {
  Attachment,
  ChatBlock,
  ContextPart,
  PromptContent,
  PromptMessageChatBlock,
  ResourceContextChatBlock,
} from '../../../shared/model/chat.js';
import { ATTACHMENT_LIMITS, formatFileSize } from '../../../shared/model/attachments.js';
import { HostError, describeError } from '../errors.js';
import { resourceAsContext } from '../features/resource-context.js';
import type { ServerManager } from '../servers/server-manager.js';

type ResourceRef = Extract<Attachment, { type: 'resource' }>;
type PromptRef = Extract<Attachment, { type: 'prompt-message' }>;

/**
 * The blocks of a user message from what the person sent: the prompt's
 * messages first (they open the turn, roles kept), then pasted images, the
 * attached resources as read now, and the typed text last.
 *
 * Resources are read before anything is stored or sent; the first one that
 * cannot be read fails the whole message with one line naming it. Each is
 * read only from the server it was attached from.
 */
export async function userMessageBlocks(
  servers: ServerManager,
  text: string,
  attachments: readonly Attachment[],
  signal?: AbortSignal,
): Promise<ChatBlock[]> {
  checkFileSizes(attachments);
  const resources = await Promise.all(
    attachments
      .filter((a): a is ResourceRef => a.type === 'resource')
      .map((a) => readAttached(servers, a, signal)),
  );
  return [
    ...attachments.filter((a): a is PromptRef => a.type === 'prompt-message').map(promptMessageBlock),
    ...attachments.flatMap((a): ChatBlock[] => {
      switch (a.type) {
        case 'image':
          return [
            {
              type: 'image',
              mimeType: a.mimeType,
              data: a.data,
              ...(a.name !== undefined ? { name: a.name } : {}),
            },
          ];
        case 'document':
          return [
            {
              type: 'document',
              name: a.name,
              mimeType: a.mimeType,
              bytes: base64Bytes(a.data),
              data: a.data,
            },
          ];
        case 'text-file':
          return [
            {
              type: 'document',
              name: a.name,
              mimeType: a.mimeType,
              bytes: Buffer.byteLength(a.text),
              text: a.text,
            },
          ];
        default:
          return [];
      }
    }),
    ...resources,
    ...(text.trim() !== '' ? [{ type: 'text' as const, text }] : []),
  ];
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** The renderer checks file sizes before it reads a file; this is the host's own check of what arrived. */
function checkFileSizes(attachments: readonly Attachment[]): void {
  let total = 0;
  let files = 0;
  for (const a of attachments) {
    if (a.type !== 'image' && a.type !== 'document' && a.type !== 'text-file') continue;
    const bytes = a.type === 'text-file' ? Buffer.byteLength(a.text) : base64Bytes(a.data);
    files++;
    total += bytes;
    if (a.type === 'image' && bytes > ATTACHMENT_LIMITS.imageBytes) {
      throw new HostError(
        'invalid_params',
        `${a.name ?? 'An image'} is ${formatFileSize(bytes)}; an image may be at most ${formatFileSize(ATTACHMENT_LIMITS.imageBytes)}. Nothing was sent.`,
      );
    }
  }
  if (files > ATTACHMENT_LIMITS.files || total > ATTACHMENT_LIMITS.totalBytes) {
    throw new HostError(
      'invalid_params',
      `The files of one message may be at most ${String(ATTACHMENT_LIMITS.files)} and ${formatFileSize(ATTACHMENT_LIMITS.totalBytes)} together (these are ${String(files)}, ${formatFileSize(total)}). Nothing was sent.`,
    );
  }
}

async function readAttached(
  servers: ServerManager,
  ref: ResourceRef,
  signal: AbortSignal | undefined,
): Promise<ResourceContextChatBlock> {
  try {
    const content = await resourceAsContext(servers.get(ref.server), ref.uri, signal);
    return { type: 'resource_context', server: ref.server, uri: ref.uri, content };
  } catch (error) {
    const code = error instanceof HostError ? error.code : 'protocol_error';
    throw new HostError(
      code,
      `Could not attach ${ref.uri} from "${ref.server}": ${describeError(error)}. Nothing was sent.`,
      { cause: error },
    );
  }
}

function promptMessageBlock(ref: PromptRef): PromptMessageChatBlock {
  return {
    type: 'prompt_message',
    server: ref.server,
    prompt: ref.prompt,
    role: ref.role,
    content: [promptPart(ref.content)],
  };
}

function promptPart(content: PromptContent): ContextPart {
  switch (content.type) {
    case 'text':
      return { type: 'text', text: content.text };
    case 'image':
      return { type: 'image', mimeType: content.mimeType, data: content.data };
    case 'resource': {
      // Quotes and angle brackets in the URI come from the server: escaped like resource context.
      const uri = content.uri.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
      return content.text !== undefined
        ? { type: 'text', text: `<resource uri="${uri}">\n${content.text}\n</resource>` }
        : {
            type: 'text',
            text: `<resource uri="${uri}">[binary content${content.blobBytes !== undefined ? `, ${String(content.blobBytes)} bytes` : ''}, not included]</resource>`,
          };
    }
  }
}
