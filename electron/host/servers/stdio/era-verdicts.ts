import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isSpecType } from '@modelcontextprotocol/client';
import type { DiscoverResult, PriorDiscovery } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { StdioServerConfig } from '../../../../shared/model/config.js';
import { canonicalDigest } from '../../canonical-json.js';
import { identityParts } from '../../consent/server-identity.js';

/**
 * Which protocol era a stdio server speaks, remembered between starts.
 *
 * Probing for the era (`server/discover`, then the legacy `initialize` when
 * the server gives no modern answer) is the one part of a connect whose
 * outcome could depend on timing. Remembering the verdict makes a restart
 * skip the probe and land where the first connect did. It is bound to the
 * server's identity (command, arguments, environment, folder): change any of
 * them and the server is probed again. It is also dropped when the server
 * reports another version than the one it was decided for, and a legacy
 * verdict expires after a week, since a server upgraded in place would
 * otherwise stay on the old handshake for ever.
 */
export interface EraVerdict {
  /** Digest of what identifies the program (see `stdioIdentity`); never the values themselves. */
  identity: string;
  era: 'modern' | 'legacy';
  /** For a modern verdict: the server's `server/discover` result, adopted without a round trip. */
  discover?: DiscoverResult | undefined;
  /** "name@version" the server reported when the verdict was made. */
  serverVersion?: string | undefined;
  decidedAt: number;
}

/** Where verdicts are kept: a file in the app's data folder, or memory (tests, the CLI's one-shot runs). */
export interface EraVerdicts {
  get(server: string): EraVerdict | undefined;
  set(server: string, verdict: EraVerdict): void;
  delete(server: string): void;
}

/** Legacy verdicts older than this are probed again. */
export const LEGACY_VERDICT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * A digest of what makes a stdio server the program it is: the identity
 * consent rules are bound to (command, arguments, env names, folder) and
 * also the env values, since a value can switch a server's mode. Values are
 * only hashed, never stored.
 */
export function stdioIdentity(config: StdioServerConfig): string {
  return canonicalDigest({ program: identityParts(config), env: config.env ?? {} });
}

/**
 * The verdict to pass to the SDK's `connect({ prior })` for a server with this
 * identity, or undefined to probe: none stored, another program, or a legacy
 * verdict past its age.
 */
export function priorFor(
  verdict: EraVerdict | undefined,
  identity: string,
  now = Date.now(),
): PriorDiscovery | undefined {
  if (verdict?.identity !== identity) return undefined;
  if (verdict.era === 'modern')
    return verdict.discover ? { kind: 'modern', discover: verdict.discover } : undefined;
  return now - verdict.decidedAt < LEGACY_VERDICT_MAX_AGE_MS ? { kind: 'legacy' } : undefined;
}

export class MemoryEraVerdicts implements EraVerdicts {
  protected readonly verdicts = new Map<string, EraVerdict>();

  get(server: string): EraVerdict | undefined {
    return this.verdicts.get(server);
  }

  set(server: string, verdict: EraVerdict): void {
    this.verdicts.set(server, verdict);
    this.changed();
  }

  delete(server: string): void {
    if (this.verdicts.delete(server)) this.changed();
  }

  protected changed(): void {
    // Nothing to persist in memory.
  }
}

const StoredVerdictSchema = z.object({
  identity: z.string(),
  era: z.enum(['modern', 'legacy']),
  discover: z.unknown().optional(),
  serverVersion: z.string().optional(),
  decidedAt: z.number(),
});
const StoredFileSchema = z.object({ version: z.literal(1), servers: z.record(z.string(), z.unknown()) });

/**
 * Verdicts in a small JSON file (`protocol-eras.json` in the data folder).
 * Read once when created; written in the background after each change, one
 * write at a time. An unreadable or malformed file (or entry) is ignored: the
 * only cost is probing again.
 */
export class FileEraVerdicts extends MemoryEraVerdicts {
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(private readonly path: string) {
    super();
    for (const [server, verdict] of Object.entries(readVerdictFile(path))) this.verdicts.set(server, verdict);
  }

  /** Resolves once every change so far is on disk. */
  flush(): Promise<void> {
    return this.writing;
  }

  protected override changed(): void {
    this.dirty = true;
    // Failing to remember a verdict is harmless (the server is probed next time), so it never throws.
    this.writing = this.writing.then(() => this.write()).catch(() => undefined);
  }

  private async write(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    const text = `${JSON.stringify({ version: 1, servers: Object.fromEntries(this.verdicts) }, null, 2)}\n`;
    await mkdir(dirname(this.path), { recursive: true });
    const temp = `${this.path}.${String(process.pid)}.${String(Date.now())}.tmp`;
    await writeFile(temp, text, { encoding: 'utf8', mode: 0o600 });
    await rename(temp, this.path);
  }
}

function readVerdictFile(path: string): Record<string, EraVerdict> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
  const file = StoredFileSchema.safeParse(json);
  if (!file.success) return {};
  const verdicts: Record<string, EraVerdict> = {};
  for (const [server, value] of Object.entries(file.data.servers)) {
    const parsed = StoredVerdictSchema.safeParse(value);
    if (!parsed.success) continue;
    const { discover, ...rest } = parsed.data;
    if (rest.era === 'modern' && !isSpecType.DiscoverResult(discover)) continue;
    verdicts[server] = {
      ...rest,
      ...(rest.era === 'modern' ? { discover: discover as DiscoverResult } : {}),
    };
  }
  return verdicts;
}

/** What a connected SDK client tells of its era, as `recordEra` needs it. */
interface ConnectedEra {
  getProtocolEra(): 'modern' | 'legacy' | undefined;
  getServerVersion(): { name: string; version: string } | undefined;
  getDiscoverResult(): DiscoverResult | undefined;
}

/**
 * Keeps the era a server settled on, for its next start. A verdict that was
 * used is dropped when the server now reports another version than it was
 * made for (the next start probes again); returns a line saying so.
 */
export function recordEra(
  verdicts: EraVerdicts,
  server: string,
  client: ConnectedEra,
  identity: string,
  settled: { by: 'probe' } | { by: 'prior'; rememberedVersion: string | undefined },
): string | undefined {
  const era = client.getProtocolEra();
  if (era === undefined) return undefined;
  const info = client.getServerVersion();
  const serverVersion = info ? `${info.name}@${info.version}` : undefined;
  if (settled.by === 'prior') {
    const before = settled.rememberedVersion;
    if (before === undefined || serverVersion === undefined || serverVersion === before) return undefined;
    verdicts.delete(server);
    return `Server version changed (${before} → ${serverVersion}): its protocol era will be checked again at the next start`;
  }
  verdicts.set(server, {
    identity,
    era,
    ...(era === 'modern' ? { discover: client.getDiscoverResult() } : {}),
    ...(serverVersion !== undefined ? { serverVersion } : {}),
    decidedAt: Date.now(),
  });
  return undefined;
}
