import type { Attachment, PromptContent } from '../../../../shared/model/chat.js';
import type { PromptResult } from '../../../../shared/model/features.js';
import type { ContentBlock } from '../../../../shared/model/server.js';

type PromptMessageAttachment = Extract<Attachment, { type: 'prompt-message' }>;

/** What inserting a prompt puts into the composer. */
export interface PromptInsert {
  /** The text of the prompt's closing user text messages: the person can still edit it. */
  readonly text: string;
  /** Every message before those, in order and with its role, sent ahead of the text. */
  readonly messages: readonly PromptMessageAttachment[];
}

type ModelImageType = Extract<PromptContent, { type: 'image' }>['mimeType'];
const MODEL_IMAGES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const isModelImage = (mimeType: string): mimeType is ModelImageType => MODEL_IMAGES.includes(mimeType);

/**
 * Splits a prompts/get result for the composer, keeping the server's order
 * and roles. The prompt's closing run of user text messages goes into the
 * text box (that is what the person is about to say, and they may edit it);
 * every message before it stays a message of its own with the role the
 * server gave it, sent ahead of the text, so an assistant message reaches
 * Claude as an assistant one and an embedded resource stays where it was.
 */
export function promptInsert(result: PromptResult): PromptInsert {
  let cut = result.messages.length;
  while (cut > 0) {
    const message = result.messages[cut - 1];
    if (message?.role !== 'user' || message.content.type !== 'text') break;
    cut -= 1;
  }
  const texts = result.messages
    .slice(cut)
    .flatMap((m) => (m.content.type === 'text' ? [m.content.text] : []));
  const messages = result.messages.slice(0, cut).map((message): PromptMessageAttachment => ({
    type: 'prompt-message',
    server: result.server,
    prompt: result.name,
    role: message.role,
    content: promptContent(message.content),
  }));
  return { text: texts.join('\n\n'), messages };
}

/** The block as the host accepts it; kinds Claude cannot take are named in text. */
function promptContent(block: ContentBlock): PromptContent {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return isModelImage(block.mimeType)
        ? { type: 'image', mimeType: block.mimeType, data: block.data }
        : { type: 'text', text: `[image ${block.mimeType}, not included]` };
    case 'resource':
      return {
        type: 'resource',
        uri: block.uri,
        ...(block.mimeType !== undefined ? { mimeType: block.mimeType } : {}),
        ...(block.text !== undefined ? { text: block.text } : {}),
        ...(block.blobBytes !== undefined ? { blobBytes: block.blobBytes } : {}),
      };
    case 'resource_link':
      return {
        type: 'text',
        text: `[resource ${block.uri}${block.name !== undefined ? ` (${block.name})` : ''}]`,
      };
    case 'audio':
      return { type: 'text', text: `[audio ${block.mimeType}, not included]` };
    case 'unknown':
      return { type: 'text', text: '[content of an unknown kind, not included]' };
  }
}

/** A one-line label for a prompt message chip. */
export function promptMessageLabel(message: PromptMessageAttachment): string {
  const { content } = message;
  const what =
    content.type === 'text'
      ? content.text.replace(/\s+/g, ' ').slice(0, 60)
      : content.type === 'image'
        ? `image (${content.mimeType})`
        : content.uri;
  return `${message.role === 'assistant' ? 'Assistant' : 'User'}: ${what}`;
}
