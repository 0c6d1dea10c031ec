import type {
  Attachment,
  ChatBlock,
  ContextPart,
  PromptContent,
  PromptMessageChatBlock,
  ResourceContextChatBlock,
} from '../../../shared/model/chat.js';
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
  const resources = await Promise.all(
    attachments
      .filter((a): a is ResourceRef => a.type === 'resource')
      .map((a) => readAttached(servers, a, signal)),
  );
  return [
    ...attachments.filter((a): a is PromptRef => a.type === 'prompt-message').map(promptMessageBlock),
    ...attachments.flatMap((a): ChatBlock[] =>
      a.type === 'image' ? [{ type: 'image', mimeType: a.mimeType, data: a.data }] : [],
    ),
    ...resources,
    ...(text.trim() !== '' ? [{ type: 'text' as const, text }] : []),
  ];
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
