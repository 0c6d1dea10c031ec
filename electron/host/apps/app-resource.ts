import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { z } from 'zod';
import {
  APP_MIME_TYPE,
  APP_PERMISSIONS,
  AppCspSchema,
  MAX_APP_HTML_BYTES,
} from '../../../shared/model/apps.js';
import type { AppCsp, AppPermission } from '../../../shared/model/apps.js';
import { HostError } from '../errors.js';
import type { ServerConnection } from '../servers/server-connection.js';

/** A `ui://` resource read and checked: HTML within the size limit, and its declared policy. */
export interface AppResource {
  uri: string;
  html: string;
  csp: AppCsp | undefined;
  permissions: AppPermission[];
  prefersBorder: boolean | undefined;
}

const Present = z.looseObject({}).optional().catch(undefined);

/** `_meta.ui` of a UI resource's contents; each part falls back to absent when malformed. */
const ResourceUiMetaSchema = z.object({
  csp: AppCspSchema.optional().catch(undefined),
  permissions: z
    .object({ camera: Present, microphone: Present, geolocation: Present, clipboardWrite: Present })
    .optional()
    .catch(undefined),
  prefersBorder: z.boolean().optional().catch(undefined),
});

type Item = ReadResourceResult['contents'][number];

/**
 * Reads an app's `ui://` resource from its own server and checks it: it must
 * exist, carry `text/html;profile=mcp-app`, and hold at most 5 MB of HTML.
 * Every failure is one line that says which of these it was.
 */
export async function loadAppResource(connection: ServerConnection, uri: string): Promise<AppResource> {
  if (!uri.startsWith('ui://')) throw unavailable(`its resource "${uri}" is not a ui:// URI`);
  try {
    connection.requireCapability('resources');
  } catch {
    throw unavailable(`server "${connection.name}" offers no resources`);
  }
  let result: ReadResourceResult;
  try {
    result = await connection.request(`resources/read ${uri}`, (client) =>
      client.readResource({ uri }, { cacheMode: 'bypass' }),
    );
  } catch (error) {
    throw unavailable(`reading ${uri} failed: ${error instanceof Error ? error.message : 'unknown error'}`);
  }
  const item = result.contents.find((c) => c.uri === uri) ?? onlyItem(result.contents);
  if (!item) throw unavailable(`${uri} returned no contents`);
  const mimeType = typeof item.mimeType === 'string' ? item.mimeType : '';
  if (normalizeMime(mimeType) !== APP_MIME_TYPE) {
    throw unavailable(`${uri} is not an MCP App (mime type "${mimeType || 'none'}")`);
  }
  const html = htmlOf(item, uri);
  const meta = ResourceUiMetaSchema.safeParse(uiMetaOf(item));
  const ui = meta.success ? meta.data : undefined;
  const permissions = APP_PERMISSIONS.filter((p) => ui?.permissions?.[p] !== undefined);
  return { uri, html, csp: ui?.csp, permissions, prefersBorder: ui?.prefersBorder };
}

function htmlOf(item: Item, uri: string): string {
  if ('text' in item && typeof item.text === 'string') {
    const bytes = Buffer.byteLength(item.text, 'utf8');
    if (bytes > MAX_APP_HTML_BYTES) throw tooLarge(uri, bytes);
    return item.text;
  }
  if ('blob' in item && typeof item.blob === 'string') {
    // Checked before decoding: base64 is 4 characters for 3 bytes.
    const estimate = Math.floor((item.blob.length * 3) / 4);
    if (estimate > MAX_APP_HTML_BYTES + 3) throw tooLarge(uri, estimate);
    return Buffer.from(item.blob, 'base64').toString('utf8');
  }
  throw unavailable(`${uri} has neither text nor blob`);
}

function uiMetaOf(item: Item): unknown {
  const meta: unknown = item._meta;
  if (typeof meta !== 'object' || meta === null) return {};
  const ui = (meta as Record<string, unknown>).ui;
  return typeof ui === 'object' && ui !== null ? ui : {};
}

const onlyItem = (contents: readonly Item[]): Item | undefined =>
  contents.length === 1 ? contents[0] : undefined;

/** "text/html; profile=mcp-app" and "TEXT/HTML;profile=mcp-app" are the same type. */
function normalizeMime(mime: string): string {
  return mime.toLowerCase().replace(/\s+/g, '');
}

function tooLarge(uri: string, bytes: number): HostError {
  const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
  return unavailable(`${uri} is ${mb(bytes)} MB, over the ${mb(MAX_APP_HTML_BYTES)} MB limit`);
}

function unavailable(reason: string): HostError {
  return new HostError('not_found', `The app cannot be shown: ${reason}`);
}
