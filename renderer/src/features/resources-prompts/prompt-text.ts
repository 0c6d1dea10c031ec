import type { ContentBlock } from '../../../../shared/model/server.js';
import type { PromptResult } from '../../../../shared/model/features.js';

/**
 * A prompts/get result as plain text, for a composer that sends one text
 * message: each message's text (embedded text resources included, with
 * their URI); images, audio and binary resources are named, not inlined.
 * A composer that can send several messages with roles should use
 * `result.messages` directly instead.
 */
export function promptAsText(result: PromptResult): string {
  return result.messages
    .map((m) => {
      const text = blockText(m.content);
      return m.role === 'assistant' ? `Assistant: ${text}` : text;
    })
    .filter((t) => t !== '')
    .join('\n\n');
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource':
      return block.text !== undefined
        ? `<resource uri="${block.uri}">\n${block.text}\n</resource>`
        : `[binary resource ${block.uri}]`;
    case 'resource_link':
      return `[resource ${block.uri}]`;
    case 'image':
      return `[image ${block.mimeType}]`;
    case 'audio':
      return `[audio ${block.mimeType}]`;
    case 'unknown':
      return '';
  }
}
