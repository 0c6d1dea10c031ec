import { UriTemplate } from '@modelcontextprotocol/client';
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import type { ResourceContent, ResourceReadResult, ResourceTarget } from '../../../shared/model/features.js';
import { HostError, describeError } from '../errors.js';
import { listenToResource, stopListeningToResource } from './resource-subscriptions.js';
import type { ServerConnection } from '../servers/server-connection.js';

/** Text longer than this is cut for display (the UI says so). */
export const TEXT_DISPLAY_LIMIT = 1_000_000;
/** Images up to this many base64 characters are sent to the UI for a preview. */
export const IMAGE_PREVIEW_LIMIT = 8 * 1024 * 1024;

/**
 * Resolves what to read: a URI as given, or a template expanded with the
 * person's values (RFC 6570, via the SDK's UriTemplate).
 */
export function targetUri(target: ResourceTarget): string {
  if ('uri' in target) return target.uri;
  let template: UriTemplate;
  try {
    template = new UriTemplate(target.uriTemplate);
  } catch (error) {
    throw new HostError('invalid_params', `Invalid URI template: ${describeError(error)}`);
  }
  const missing = template.variableNames.filter((name) => (target.variables[name] ?? '') === '');
  if (missing.length > 0) {
    throw new HostError('invalid_params', `Fill in ${missing.map((n) => `"${n}"`).join(', ')}`);
  }
  return template.expand(target.variables);
}

/** Reads a resource (resources/read) and shapes its contents for the UI. */
export async function readResource(
  connection: ServerConnection,
  target: ResourceTarget,
  signal?: AbortSignal,
): Promise<ResourceReadResult> {
  const uri = targetUri(target);
  connection.requireCapability('resources');
  const result = await connection.request(`resources/read ${uri}`, (client) =>
    client.readResource({ uri }, { cacheMode: 'bypass', ...(signal ? { signal } : {}) }),
  );
  return { uri, contents: result.contents.map(toContent), readAt: Date.now() };
}

/**
 * Subscribes to updates of one resource; only when the server declared
 * `resources.subscribe`. A 2026-07-28 connection has no resources/subscribe:
 * the URI joins the connection's `subscriptions/listen` filter instead
 * (resource-subscriptions.ts).
 */
export async function subscribeResource(connection: ServerConnection, uri: string): Promise<void> {
  connection.requireCapability('resources.subscribe');
  await connection.request(`subscribe to ${uri}`, async (client) => {
    if (client.getProtocolEra() === 'modern') await listenToResource(client, uri);
    else await client.subscribeResource({ uri });
  });
}

export async function unsubscribeResource(connection: ServerConnection, uri: string): Promise<void> {
  connection.requireCapability('resources.subscribe');
  await connection.request(`unsubscribe from ${uri}`, async (client) => {
    if (client.getProtocolEra() === 'modern') await stopListeningToResource(client, uri);
    else await client.unsubscribeResource({ uri });
  });
}

type Contents = ReadResourceResult['contents'][number];

function toContent(item: Contents): ResourceContent {
  const mimeType = typeof item.mimeType === 'string' ? { mimeType: item.mimeType } : {};
  if ('text' in item && typeof item.text === 'string') {
    const long = item.text.length > TEXT_DISPLAY_LIMIT;
    return {
      kind: 'text',
      uri: item.uri,
      ...mimeType,
      text: long ? item.text.slice(0, TEXT_DISPLAY_LIMIT) : item.text,
      ...(long ? { truncated: true, totalChars: item.text.length } : {}),
    };
  }
  const blob = 'blob' in item && typeof item.blob === 'string' ? item.blob : '';
  const image = /^image\/[a-z0-9.+-]+$/i.test(item.mimeType ?? '');
  return {
    kind: 'binary',
    uri: item.uri,
    ...mimeType,
    bytes: base64Bytes(blob),
    ...(image && blob.length <= IMAGE_PREVIEW_LIMIT && isBase64(blob) ? { previewData: blob } : {}),
  };
}

/** Decoded size of base64 text, without decoding it. */
export function base64Bytes(data: string): number {
  const clean = data.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** Only well-formed base64 goes into a data: URL. */
function isBase64(data: string): boolean {
  return /^[A-Za-z0-9+/]*={0,2}$/.test(data);
}
