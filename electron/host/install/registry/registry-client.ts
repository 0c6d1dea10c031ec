import type { EntryKind, RegistryEntry, RegistryPage } from '../../../../shared/model/registry.js';
import { HostError, describeError } from '../../errors.js';
import { ServerListSchema, ServerResponseSchema } from './registry-schema.js';
import type { ServerResponse } from './registry-schema.js';

/** What the registry client needs of fetch (tests pass their own). */
export type RegistryFetch = (url: string, init: RequestInit) => Promise<Response>;

export interface RegistryClientOptions {
  fetch?: RegistryFetch | undefined;
  /** Per request, headers and body together (default 10 s). */
  timeoutMs?: number | undefined;
  /** Largest answer read (default 4 MiB); a longer one is refused, not truncated. */
  maxBytes?: number | undefined;
  /** Entries per page (default 30). */
  pageSize?: number | undefined;
}

export interface SearchResult {
  page: RegistryPage;
  /** The validated entries of the page, as the registry sent them. */
  responses: ServerResponse[];
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The official MCP registry's read API (and any registry that implements
 * it): `GET /v0.1/servers?search=…&cursor=…&version=latest&limit=…` and
 * `GET /v0.1/servers/{name}/versions/{version}`. Every answer is bounded in
 * time and size and checked against the schema; whatever goes wrong becomes
 * one HostError line naming the registry.
 */
export class RegistryClient {
  private readonly fetch: RegistryFetch;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly pageSize: number;

  constructor(options: RegistryClientOptions = {}) {
    this.fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.pageSize = options.pageSize ?? 30;
  }

  /** One page of the latest versions matching `query` (all servers when empty). */
  async search(registryUrl: string, query: string, cursor?: string): Promise<SearchResult> {
    const url = new URL(`${registryUrl.replace(/\/+$/, '')}/v0.1/servers`);
    url.searchParams.set('version', 'latest');
    url.searchParams.set('limit', String(this.pageSize));
    if (query !== '') url.searchParams.set('search', query);
    if (cursor !== undefined) url.searchParams.set('cursor', cursor);
    const json = await this.getJson(registryUrl, url);
    const list = ServerListSchema.safeParse(json);
    if (!list.success) throw garbage(registryUrl, list.error.issues[0]);
    const responses: ServerResponse[] = [];
    let skipped = 0;
    for (const item of list.data.servers) {
      const parsed = ServerResponseSchema.safeParse(item);
      if (parsed.success) responses.push(parsed.data);
      else skipped += 1;
    }
    const nextCursor = list.data.metadata?.nextCursor;
    return {
      responses,
      page: {
        entries: responses.map(entryView),
        ...(nextCursor !== undefined && nextCursor !== '' ? { nextCursor } : {}),
        registryUrl,
        skipped,
      },
    };
  }

  /** One version of one server ("latest" for the newest). */
  async get(registryUrl: string, name: string, version: string): Promise<ServerResponse> {
    const base = registryUrl.replace(/\/+$/, '');
    const url = new URL(
      `${base}/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`,
    );
    const json = await this.getJson(registryUrl, url, `"${name}" ${version}`);
    const parsed = ServerResponseSchema.safeParse(json);
    if (!parsed.success) throw garbage(registryUrl, parsed.error.issues[0]);
    return parsed.data;
  }

  private async getJson(registryUrl: string, url: URL, what?: string): Promise<unknown> {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      controller.abort();
    }, this.timeoutMs);
    try {
      const response = await this.fetch(url.href, {
        headers: { Accept: 'application/json' },
        signal: controller.signal,
      });
      if (response.status === 404 && what !== undefined) {
        await response.body?.cancel().catch(() => undefined);
        throw new HostError('not_found', `The registry at ${registryUrl} has no entry ${what}`);
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new HostError(
          'connection_failed',
          `The registry at ${registryUrl} answered ${String(response.status)}${response.statusText ? ` ${response.statusText}` : ''}`,
        );
      }
      const body = await readBounded(response, this.maxBytes, registryUrl);
      try {
        return JSON.parse(body) as unknown;
      } catch {
        throw new HostError(
          'protocol_error',
          `The registry at ${registryUrl} answered with something that is not JSON`,
        );
      }
    } catch (error) {
      if (error instanceof HostError) throw error;
      if (controller.signal.aborted) {
        throw new HostError(
          'timeout',
          `The registry at ${registryUrl} did not answer within ${String(Math.round(this.timeoutMs / 1000))} s`,
        );
      }
      throw new HostError(
        'connection_failed',
        `Cannot reach the registry at ${registryUrl}: ${reason(error)}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The body as text, refused once it passes `max` bytes (never read to the end). */
async function readBounded(response: Response, max: number, registryUrl: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  const tooLarge = () =>
    new HostError(
      'protocol_error',
      `The registry at ${registryUrl} sent an answer larger than ${String(Math.round(max / 1024 / 1024))} MB`,
    );
  if (declared > max) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function garbage(
  registryUrl: string,
  issue: { path: PropertyKey[]; message: string } | undefined,
): HostError {
  const where =
    issue && issue.path.length > 0 ? ` (${issue.path.map(String).join('.')}: ${issue.message})` : '';
  return new HostError(
    'protocol_error',
    `The registry at ${registryUrl} answered with something that is not a registry answer${where}`,
  );
}

/** The network error's cause ("ECONNREFUSED"), which fetch hides behind "fetch failed". */
function reason(error: unknown): string {
  if (error instanceof Error && error.cause instanceof Error) {
    const code = (error.cause as { code?: unknown }).code;
    return typeof code === 'string' ? code : describeError(error.cause);
  }
  return describeError(error);
}

/** An http(s) URL as given, else nothing (a javascript: or file: "repository" is not a link). */
export function webUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** How an entry runs, one kind per package or remote (in order, without repeats). */
export function kindsOf(response: ServerResponse): EntryKind[] {
  const kinds = new Set<EntryKind>();
  for (const pkg of response.server.packages ?? []) kinds.add(packageKind(pkg.registryType));
  if ((response.server.remotes ?? []).length > 0) kinds.add('remote');
  return [...kinds];
}

export function packageKind(registryType: string): Exclude<EntryKind, 'remote'> {
  return registryType === 'npm' || registryType === 'pypi' || registryType === 'oci' ? registryType : 'other';
}

/** The search result the renderer shows. */
export function entryView(response: ServerResponse): RegistryEntry {
  const { server } = response;
  const official = response._meta?.['io.modelcontextprotocol.registry/official'];
  const repositoryUrl = webUrl(server.repository?.url);
  const websiteUrl = webUrl(server.websiteUrl);
  return {
    name: server.name,
    ...(server.title !== undefined ? { title: server.title } : {}),
    description: server.description,
    version: server.version,
    ...(repositoryUrl !== undefined ? { repositoryUrl } : {}),
    ...(websiteUrl !== undefined ? { websiteUrl } : {}),
    kinds: kindsOf(response),
    ...(official?.status !== undefined ? { status: official.status } : {}),
    ...(official?.statusMessage !== undefined ? { statusMessage: official.statusMessage } : {}),
  };
}
