import type { ReadResourceResult } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../servers/server-connection.js';
import { base64Bytes } from './resources.js';

/** Text of one attached resource beyond this many characters is cut (the model is told). */
export const CONTEXT_TEXT_LIMIT = 100_000;
/** Images larger than this (base64 characters) are described instead of sent. */
export const CONTEXT_IMAGE_LIMIT = 5 * 1024 * 1024;
const MODEL_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** A piece of context for the model, independent of any model SDK's types. */
export type ContextBlock = { type: 'text'; text: string } | { type: 'image'; mimeType: string; data: string };

/**
 * Reads a resource the person attached to a chat message and turns it into
 * context for the model: text wrapped with its URI (cut at a limit, saying
 * so), images the model accepts as image blocks, any other binary content
 * named with its type and size. The chat calls this when the message is sent,
 * so the model sees the resource as it is at that moment.
 */
export async function resourceAsContext(
  connection: ServerConnection,
  uri: string,
  signal?: AbortSignal,
): Promise<ContextBlock[]> {
  connection.requireCapability('resources');
  const result = await connection.request(`resources/read ${uri}`, (client) =>
    client.readResource({ uri }, { cacheMode: 'bypass', ...(signal ? { signal } : {}) }),
  );
  return result.contents.map((item) => toContext(connection.name, item));
}

function toContext(server: string, item: ReadResourceResult['contents'][number]): ContextBlock {
  // Attribute values come from the server: quotes and angle brackets are escaped.
  const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const source = `server="${attr(server)}" uri="${attr(item.uri)}"${item.mimeType !== undefined ? ` mimeType="${attr(item.mimeType)}"` : ''}`;
  if ('text' in item && typeof item.text === 'string') {
    const cut = item.text.length > CONTEXT_TEXT_LIMIT;
    const body = cut ? item.text.slice(0, CONTEXT_TEXT_LIMIT) : item.text;
    const note = cut
      ? `\n[cut: first ${String(CONTEXT_TEXT_LIMIT)} of ${String(item.text.length)} characters]`
      : '';
    return { type: 'text', text: `<resource ${source}>\n${body}${note}\n</resource>` };
  }
  const blob = 'blob' in item && typeof item.blob === 'string' ? item.blob : '';
  const mimeType = (item.mimeType ?? '').toLowerCase();
  if (MODEL_IMAGE_TYPES.includes(mimeType) && blob.length <= CONTEXT_IMAGE_LIMIT) {
    return { type: 'image', mimeType, data: blob };
  }
  return {
    type: 'text',
    text: `<resource ${source}>[binary content, ${String(base64Bytes(blob))} bytes, not included]</resource>`,
  };
}
