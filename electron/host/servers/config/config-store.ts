import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConfigFileSchema } from '../../../../shared/model/config.js';
import type { ConfigFile, ServerConfig } from '../../../../shared/model/config.js';
import { HostError, describeError } from '../../errors.js';
import { SerialQueue, tempPathFor } from '../../serial-queue.js';

export type LoadedConfig = { ok: true; config: ConfigFile } | { ok: false; error: string };

/**
 * The `mcpServers` JSON file. Reads are validated with zod; a file that does
 * not parse is reported and left exactly as it is: every write is refused
 * until the person fixes it and reloads. Writes are atomic (a temp file of
 * their own + rename), one at a time, and keep every key we do not understand.
 */
export class ConfigStore {
  private current: LoadedConfig = { ok: true, config: { mcpServers: {} } };
  private readonly writes = new SerialQueue();

  constructor(readonly path: string) {}

  get state(): LoadedConfig {
    return this.current;
  }

  /** Reads the file; a missing file is an empty configuration, not an error. */
  async load(): Promise<LoadedConfig> {
    this.current = await readConfigFile(this.path);
    return this.current;
  }

  servers(): Record<string, ServerConfig> {
    return this.current.ok ? this.current.config.mcpServers : {};
  }

  /**
   * Applies a change to the server table and writes the file. Changes run
   * one at a time, each on the result of the one before: two saves at the
   * same moment both land.
   */
  update(change: (servers: Record<string, ServerConfig>) => void): Promise<void> {
    return this.writes.run(async () => {
      if (!this.current.ok) {
        throw new HostError(
          'config_invalid',
          `The configuration file is invalid, so it was not changed. Fix it, then reload: ${this.current.error}`,
        );
      }
      const next: ConfigFile = { ...this.current.config, mcpServers: { ...this.current.config.mcpServers } };
      change(next.mcpServers);
      // Every way in ends here: nothing the file would not load is ever written.
      const problem = configProblem(next);
      if (problem !== undefined) throw new HostError('config_invalid', `Not saved: ${problem}`);
      await writeConfigFile(this.path, next);
      this.current = { ok: true, config: next };
    });
  }

  /** The file's text as stored; a missing file reads as an empty configuration. */
  async readText(): Promise<string> {
    try {
      return await readFile(this.path, 'utf8');
    } catch (error) {
      if (isMissing(error)) return `${JSON.stringify({ mcpServers: {} }, null, 2)}\n`;
      throw new HostError('internal', `Cannot read ${this.path}: ${describeError(error)}`);
    }
  }

  /**
   * Writes text the caller has already validated (the raw editor), keeping
   * the person's formatting. Allowed while the current file is invalid: this
   * is how it gets fixed.
   */
  writeText(text: string, config: ConfigFile): Promise<void> {
    return this.writes.run(async () => {
      await writeAtomically(this.path, text);
      this.current = { ok: true, config };
    });
  }
}

/** The table with `from` renamed to `to` (same position) and its entry replaced. */
export function replaceEntry(
  servers: Record<string, ServerConfig>,
  from: string | undefined,
  to: string,
  config: ServerConfig,
): Record<string, ServerConfig> {
  if (from === undefined || !(from in servers)) return { ...servers, [to]: config };
  const next: Record<string, ServerConfig> = {};
  for (const [name, entry] of Object.entries(servers)) {
    if (name === from) next[to] = config;
    else next[name] = entry;
  }
  return next;
}

interface Issue {
  code?: string;
  path: PropertyKey[];
  message: string;
  errors?: Issue[][];
}

/**
 * For an entry that matched neither a local nor a remote server: the issue of
 * the kind it matched deepest (a stdio entry with a malformed `sandbox` key
 * is named down to that key), else the union's own message.
 */
function specificIssue(issue: Issue | undefined): Issue | undefined {
  if (issue?.code !== 'invalid_union' || issue.errors === undefined) return issue;
  const firsts = issue.errors.map((branch) => branch[0]).filter((i): i is Issue => i !== undefined);
  const depth = (i: Issue): number => i.path.length;
  const deepest = Math.max(...firsts.map(depth));
  const best = firsts.filter((i) => depth(i) === deepest);
  if (best.length !== 1 || best[0] === undefined || deepest < 2) return issue;
  return { ...best[0], path: [...issue.path, ...best[0].path] };
}

/** Reads and validates a configuration file without side effects. */
export async function readConfigFile(path: string): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return { ok: true, config: { mcpServers: {} } };
    return { ok: false, error: `Cannot read ${path}: ${describeError(error)}` };
  }
  if (text.trim() === '') return { ok: true, config: { mcpServers: {} } };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${path} is not valid JSON: ${describeError(error)}` };
  }
  const parsed = ConfigFileSchema.safeParse(json);
  if (!parsed.success) return { ok: false, error: `${path}: ${describeIssue(parsed.error.issues[0])}` };
  return { ok: true, config: parsed.data };
}

/** The first problem of a configuration as one line naming its key path, or undefined when it is valid. */
function configProblem(config: ConfigFile): string | undefined {
  const parsed = ConfigFileSchema.safeParse(config);
  return parsed.success ? undefined : describeIssue(parsed.error.issues[0]);
}

function describeIssue(first: Issue | undefined): string {
  const issue = specificIssue(first);
  const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'top level';
  return `${where}: ${issue?.message ?? 'invalid'}`;
}

async function writeConfigFile(path: string, config: ConfigFile): Promise<void> {
  await writeAtomically(path, `${JSON.stringify(config, null, 2)}\n`);
}

async function writeAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = tempPathFor(path);
  await writeFile(temp, text, { encoding: 'utf8', mode: 0o600 });
  await rename(temp, path);
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}
