import type { Attachment, PromptContent } from '../../../shared/model/chat.js';
import type { PromptResult } from '../../../shared/model/features.js';
import type { ContentBlock } from '../../../shared/model/server.js';

type PromptMessageAttachment = Extract<Attachment, { type: 'prompt-message' }>;

/** What inserting a prompt puts into the composer. */
export interface PromptInsert {
  /** The text of the prompt's closing user messages: the person can still edit it. */
  readonly text: string;
  /** Every other message, in order and with its role, sent as the start of the turn. */
  readonly messages: readonly PromptMessageAttachment[];
}

type ModelImageType = Extract<PromptContent, { type: 'image' }>['mimeType'];
const MODEL_IMAGES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const isModelImage = (mimeType: string): mimeType is ModelImageType => MODEL_IMAGES.includes(mimeType);

/**
 * Splits a prompts/get result for the composer. The text of the user
 * messages after the prompt's last assistant message goes into the text box
 * (that is what the person is about to say); everything before, and any
 * image or embedded resource, stays a message of its own with the role the
 * server gave it, so an assistant message reaches Claude as an assistant one.
 */
export function promptInsert(result: PromptResult): PromptInsert {
  const lastAssistant = result.messages.map((m) => m.role).lastIndexOf('assistant');
  const texts: string[] = [];
  const messages: PromptMessageAttachment[] = [];
  result.messages.forEach((message, index) => {
    const { content } = message;
    if (index > lastAssistant && content.type === 'text') {
      texts.push(content.text);
      return;
    }
    messages.push({
      type: 'prompt-message',
      server: result.server,
      prompt: result.name,
      role: message.role,
      content: promptContent(content),
    });
  });
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
