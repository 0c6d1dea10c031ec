import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join, sep } from 'node:path';
import { BUNDLE_FILE_MAX_BYTES } from '../../../../shared/model/bundle.js';
import type { BundlePreview, BundleValue } from '../../../../shared/model/bundle.js';
import { isStdioConfig } from '../../../../shared/model/config.js';
import type { ServerConfig, StdioServerConfig } from '../../../../shared/model/config.js';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { HostError, describeError } from '../../errors.js';
import type { Platform } from '../../platform.js';
import type { ConfigEditor } from '../../servers/config/config-editor.js';
import type { ConfigStore } from '../../servers/config/config-store.js';
import type { ServerManager } from '../../servers/server-manager.js';
import { currentRuntime, findOnPath } from '../../servers/stdio/launch-spec.js';
import type { AppRuntime } from '../../servers/stdio/launch-spec.js';
import type { HostEnvironment } from '../../servers/stdio/login-env.js';
import { settingReferences } from '../../servers/stdio/setting-references.js';
import { hasFile, openBundle, unpackBundle } from './bundle-files.js';
import type { OpenedBundle } from './bundle-files.js';
import { loadMcpb } from './mcpb.js';
import type { McpbNode } from './mcpb.js';
import {
  checkSubstituted,
  checkTemplate,
  manifestCommand,
  substitute,
  systemVariables,
} from './bundle-launch.js';
import type { LaunchTemplate } from './bundle-launch.js';
import { describeBundle } from './bundle-preview.js';
import type { RuntimeCheck } from './bundle-preview.js';
import { BundleRecords } from './bundle-records.js';
import type { BundleRecord } from './bundle-records.js';
import { BundleUploads } from './bundle-uploads.js';
import type { UploadChunk } from './bundle-uploads.js';
import { settleValues } from './bundle-values.js';

/**
 * Installs servers from MCP bundles (.mcpb). A bundle is opened once into a
 * host-held preview (a token; the renderer never names a path), shown, and
 * installed with the person's answers:
 *
 *   open   → signature, archive and manifest checked; a private copy kept in
 *            `<data>/bundles/.incoming/` so the file cannot change between
 *            what was shown and what is installed;
 *   install → settings checked → the EXISTING launch confirmation (the exact
 *            command line) → files unpacked into `<data>/bundles/<server>/<slot>`
 *            (staging folder, then rename) → secrets encrypted → the entry
 *            written to the configuration → started like any other server.
 *
 * A failure at any step leaves nothing behind: no folder, no secret, no entry.
 */

export interface BundleInstallerOptions {
  dataDir: string;
  platform: Pick<Platform, 'encryptSecret' | 'decryptSecret' | 'forgetSecret' | 'pickFolder' | 'pickFile'>;
  editor: ConfigEditor;
  servers: ServerManager;
  store: ConfigStore;
  environment: () => Promise<HostEnvironment>;
  runtime?: AppRuntime;
  mcpb?: () => Promise<McpbNode>;
  now?: () => number;
}

interface Held {
  token: string;
  fileName: string;
  copy: string;
  opened: OpenedBundle;
  serverName: string;
  slot: string;
  createdAt: number;
}

const MAX_PREVIEWS = 4;
const PREVIEW_TTL_MS = 60 * 60_000;
const RECORDS_FILE = 'bundle-installs.json';
/** Keys of an entry that describe what runs; everything else (disabled, disabledTools, timeouts…) survives an update. */
const LAUNCH_KEYS = new Set(['type', 'command', 'args', 'env', 'cwd', 'bundle']);

export class BundleInstaller {
  readonly records: BundleRecords;
  private readonly uploads: BundleUploads;
  private readonly previews = new Map<string, Held>();
  private readonly root: string;

  constructor(private readonly options: BundleInstallerOptions) {
    this.root = join(options.dataDir, 'bundles');
    this.records = new BundleRecords(join(options.dataDir, RECORDS_FILE));
    this.uploads = new BundleUploads(options.now);
  }

  /** Removes what an interrupted run left (staging folders, preview copies). */
  async cleanup(): Promise<void> {
    await rm(this.incoming, { recursive: true, force: true }).catch(() => undefined);
    const servers = await readdir(this.root).catch(() => []);
    for (const server of servers) {
      const slots = await readdir(join(this.root, server)).catch(() => []);
      for (const slot of slots.filter((name) => name.startsWith('.staging-')))
        await rm(join(this.root, server, slot), { recursive: true, force: true }).catch(() => undefined);
    }
  }

  uploadChunk(chunk: UploadChunk): { uploadId: string; received: number } {
    return this.uploads.append(chunk);
  }

  /** Opens an upload, or a file the person picks in the host's own dialog (null when cancelled). */
  async previewSource(
    source: { kind: 'upload'; uploadId: string } | { kind: 'pick' },
  ): Promise<BundlePreview | null> {
    if (source.kind === 'upload') {
      const { fileName, bytes } = this.uploads.take(source.uploadId);
      return this.previewBytes(bytes, fileName);
    }
    if (!this.options.platform.pickFile)
      throw new HostError(
        'invalid_params',
        'There is no file dialog here; drop the bundle onto the window instead',
      );
    const path = await this.options.platform.pickFile({
      title: 'Open an MCP bundle',
      extensions: ['mcpb', 'dxt'],
    });
    return path === null ? null : this.previewFile(path);
  }

  /** Opens a bundle file on this computer (the CLI, the native dialog). */
  async previewFile(path: string): Promise<BundlePreview> {
    const size = await stat(path).then(
      (s) => (s.isFile() ? s.size : -1),
      () => undefined,
    );
    if (size === undefined) throw new HostError('not_found', `There is no file at ${path}`);
    if (size < 0) throw new HostError('invalid_params', `${path} is not a file`);
    if (size > BUNDLE_FILE_MAX_BYTES)
      throw new HostError(
        'invalid_params',
        `This file is too large for a bundle (at most ${mib(BUNDLE_FILE_MAX_BYTES)})`,
      );
    return this.previewBytes(await readFile(path), basename(path));
  }

  async previewBytes(bytes: Buffer, fileName: string): Promise<BundlePreview> {
    if (bytes.length > BUNDLE_FILE_MAX_BYTES)
      throw new HostError(
        'invalid_params',
        `This file is too large for a bundle (at most ${mib(BUNDLE_FILE_MAX_BYTES)})`,
      );
    const mcpb = await (this.options.mcpb ?? loadMcpb)();
    const opened = await openBundle(bytes, mcpb);
    checkTemplate(manifestCommand(opened.manifest));
    const serverName = serverNameOf(opened.manifest.name);
    const token = randomBytes(18).toString('base64url');
    await mkdir(this.incoming, { recursive: true, mode: 0o700 });
    const copy = join(this.incoming, `${token}.mcpb`);
    await writeFile(copy, bytes, { mode: 0o600 });
    const slot = `${safeSegment(opened.manifest.version)}-${randomBytes(4).toString('hex')}`;
    this.hold({ token, fileName, copy, opened, serverName, slot, createdAt: this.now() });
    return this.describe(this.held(token));
  }

  /** Forgets a preview (Cancel). */
  async discard(token: string): Promise<void> {
    const held = this.previews.get(token);
    if (!held) return;
    this.previews.delete(token);
    await rm(held.copy, { force: true }).catch(() => undefined);
  }

  /** The host's picker for a directory or file setting; null when cancelled or when there is no dialog. */
  async pickPath(token: string, key: string): Promise<string | null> {
    const option = this.held(token).opened.manifest.user_config?.[key];
    if (!option || (option.type !== 'directory' && option.type !== 'file'))
      throw new HostError('invalid_params', `"${key}" is not a folder or file setting`);
    const title = `Choose ${option.title || key}`;
    if (option.type === 'directory') return this.options.platform.pickFolder({ title });
    return this.options.platform.pickFile ? this.options.platform.pickFile({ title }) : null;
  }

  /**
   * Installs (or updates) the previewed bundle with the person's answers.
   * Ends in the launch confirmation; nothing is unpacked before it is allowed.
   */
  async install(token: string, answers: Readonly<Record<string, BundleValue>>): Promise<ServerSnapshot> {
    const held = this.held(token);
    const preview = await this.describe(held);
    const [blocker] = preview.blockers;
    if (blocker !== undefined) throw new HostError('denied', `Nothing was installed: ${blocker}`);
    const { manifest } = held.opened;
    const previous = await this.sameBundle(held);
    const dir = join(this.root, held.serverName, held.slot);
    const system = systemVariables();
    const settled = await settleValues(
      manifest.user_config ?? {},
      answers,
      previous ? { values: previous.values, secretKeys: new Set(Object.keys(previous.secrets)) } : undefined,
      (text) =>
        substitute({ command: text, args: [], env: {} }, { dir, system, values: {}, sensitive: new Set() })
          .command,
    );
    const sensitive = new Set(
      Object.entries(manifest.user_config ?? {})
        .filter(([, option]) => option.sensitive === true)
        .map(([key]) => key),
    );
    const launch = substitute(manifestCommand(manifest), { dir, system, values: settled.values, sensitive });
    checkSubstituted(launch);
    const existing = this.options.store.servers()[held.serverName];
    const config: StdioServerConfig = {
      ...kept(existing),
      command: launch.command,
      args: launch.args,
      ...(Object.keys(launch.env).length > 0 ? { env: launch.env } : {}),
      bundle: { id: manifest.name, version: manifest.version },
    };

    const stored: Record<string, string> = {};
    const done = { unpacked: false };
    const prepare = async () => {
      const zip = (await openBundle(await readFile(held.copy), await (this.options.mcpb ?? loadMcpb)())).zip;
      await unpackBundle(zip, held.opened.entries, dir);
      done.unpacked = true;
      for (const [key, secret] of Object.entries(settled.secrets))
        stored[key] = await this.options.platform.encryptSecret(secret);
      const secrets = { ...pick(previous?.secrets ?? {}, settled.keptSecrets), ...stored };
      await this.records.set(held.serverName, {
        id: manifest.name,
        version: manifest.version,
        dir,
        installedAt: this.now(),
        values: settled.values,
        secrets,
        launch: { command: launch.command, args: launch.args, env: launch.env },
      });
    };
    let snapshot: ServerSnapshot;
    try {
      snapshot = await this.options.editor.saveEntry(held.serverName, config, prepare);
    } catch (error) {
      // Back to exactly what was there: the previous record (or none), no new folder, no new secret.
      if (done.unpacked) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      for (const value of Object.values(stored))
        await this.options.platform.forgetSecret(value).catch(() => undefined);
      if (previous) await this.records.set(held.serverName, previous).catch(() => undefined);
      else await this.records.delete(held.serverName).catch(() => undefined);
      throw error;
    }
    await this.discard(token);
    if (previous) await this.dropReplaced(previous, dir, settled.keptSecrets);
    return snapshot;
  }

  /** Removes a bundle-installed server: its entry, its files and its secrets. */
  async uninstall(name: string): Promise<void> {
    const record = await this.records.get(name);
    const entry = this.options.store.servers()[name];
    if (!record && !(entry && isStdioConfig(entry) && entry.bundle))
      throw new HostError('not_found', `"${name}" was not installed from a bundle`);
    if (this.options.servers.has(name)) await this.options.servers.remove(name);
    await rm(join(this.root, name), { recursive: true, force: true });
    for (const value of Object.values(record?.secrets ?? {}))
      await this.options.platform.forgetSecret(value).catch(() => undefined);
    await this.records.delete(name);
  }

  /**
   * Bundles whose entry left the configuration some other way (the file
   * editor, another program): their files and secrets go too. Nothing is
   * touched while the file is invalid (its entries are unknown then).
   */
  async forgetOrphans(): Promise<void> {
    if (!this.options.store.state.ok) return;
    for (const [name, record] of await this.records.all()) {
      const entry = this.options.store.servers()[name];
      if (entry && isStdioConfig(entry) && entry.bundle?.id === record.id) continue;
      await rm(join(this.root, name), { recursive: true, force: true }).catch(() => undefined);
      for (const value of Object.values(record.secrets))
        await this.options.platform.forgetSecret(value).catch(() => undefined);
      await this.records.delete(name);
    }
  }

  /** Whether a server was installed from a bundle (its removal is an uninstall). */
  async isBundle(name: string): Promise<boolean> {
    const entry = this.options.store.servers()[name];
    return (
      (entry !== undefined && isStdioConfig(entry) && entry.bundle !== undefined) ||
      (await this.records.get(name)) !== undefined
    );
  }

  /**
   * The secrets a bundle entry's `${user_config.KEY}` references stand for,
   * decrypted for one spawn. Only for the command line the bundle installed:
   * an entry edited since then (another command, other arguments or
   * environment) gets none, so a changed entry cannot carry them elsewhere.
   */
  async secretsFor(name: string, config: StdioServerConfig): Promise<Record<string, string>> {
    const wanted = new Set(
      [config.command, ...(config.args ?? []), ...Object.values(config.env ?? {})].flatMap(settingReferences),
    );
    if (wanted.size === 0 || config.bundle === undefined) return {};
    const record = await this.records.get(name);
    if (!record || record.id !== config.bundle.id)
      throw new HostError(
        'config_invalid',
        `Server "${name}": its bundle settings are missing; install the bundle again`,
      );
    if (!sameLaunch(record.launch, config))
      throw new HostError(
        'denied',
        `Server "${name}" was changed after it was installed from its bundle, so its secret settings are not given to it; update or reinstall the bundle`,
      );
    const secrets: Record<string, string> = {};
    for (const key of wanted) {
      const stored = record.secrets[key];
      if (stored === undefined) continue;
      try {
        secrets[key] = await this.options.platform.decryptSecret(stored);
      } catch (error) {
        throw new HostError(
          'config_invalid',
          `Server "${name}": a secret setting cannot be read (${describeError(error)}); update the bundle to enter it again`,
        );
      }
    }
    return secrets;
  }

  private async describe(held: Held): Promise<BundlePreview> {
    const { manifest } = held.opened;
    const dir = join(this.root, held.serverName, held.slot);
    const installed = await this.sameBundle(held);
    const existing =
      this.options.servers.has(held.serverName) ||
      this.options.store.servers()[held.serverName] !== undefined;
    const sensitive = new Set(
      Object.entries(manifest.user_config ?? {})
        .filter(([, option]) => option.sensitive === true)
        .map(([key]) => key),
    );
    // Shown with every setting still a placeholder: the values are not known before the form.
    const all = new Set([...sensitive, ...Object.keys(manifest.user_config ?? {})]);
    const launch = substitute(manifestCommand(manifest), {
      dir,
      system: systemVariables(),
      values: {},
      sensitive: all,
    });
    return describeBundle(held.opened, {
      token: held.token,
      fileName: held.fileName,
      serverName: held.serverName,
      launch,
      dir,
      runtime: await this.runtimeOf(launch, held.opened, dir),
      installed,
      clash: existing && installed === undefined,
      platform: process.platform,
    });
  }

  /** The installed record of this same bundle under the server's name, if any. */
  private async sameBundle(held: Held): Promise<BundleRecord | undefined> {
    const record = await this.records.get(held.serverName);
    const entry = this.options.store.servers()[held.serverName];
    if (!record || record.id !== held.opened.manifest.name) return undefined;
    // The record counts only while the entry it made is still there.
    return entry && isStdioConfig(entry) && entry.bundle?.id === record.id ? record : undefined;
  }

  /** Where the program that runs the server comes from, or a clear line that it is missing. */
  private async runtimeOf(launch: LaunchTemplate, opened: OpenedBundle, dir: string): Promise<RuntimeCheck> {
    const command = launch.command;
    if (command.startsWith(dir + sep)) {
      const inside = command
        .slice(dir.length + 1)
        .split(sep)
        .join('/');
      return hasFile(opened.entries, inside)
        ? { found: true, text: `Runs ${inside} from the bundle.` }
        : { found: false, text: `The program the bundle runs (${inside}) is not in the bundle.` };
    }
    const env = (await this.options.environment()).all;
    const path = env.PATH ?? env.Path ?? '';
    const found =
      command.includes('/') || command.includes('\\')
        ? await executable(command)
        : await findOnPath(command, path, env.PATHEXT);
    if (found !== undefined) return { found: true, text: `Runs with ${found}.` };
    const base = command.replace(/\.exe$/i, '').toLowerCase();
    if (base === 'node') {
      const runtime = this.options.runtime ?? currentRuntime();
      const which = runtime.electron
        ? `Electron's Node ${runtime.nodeVersion}`
        : `Node ${runtime.nodeVersion}`;
      return {
        found: true,
        text: `node is not on this computer's PATH: it runs on the app's own runtime (${which}).`,
      };
    }
    const hint = base.startsWith('python')
      ? ' Install Python 3 and try again.'
      : base === 'uv'
        ? ' Install uv (https://docs.astral.sh/uv/) and try again.'
        : '';
    return {
      found: false,
      text: `This bundle needs ${command}, which is not on this computer (not found on PATH).${hint}`,
    };
  }

  /** After an update: the old version's folder and the secrets nothing uses any more. */
  private async dropReplaced(previous: BundleRecord, dir: string, kept: readonly string[]): Promise<void> {
    if (previous.dir !== dir) await rm(previous.dir, { recursive: true, force: true }).catch(() => undefined);
    for (const [key, value] of Object.entries(previous.secrets)) {
      if (!kept.includes(key)) await this.options.platform.forgetSecret(value).catch(() => undefined);
    }
  }

  private hold(held: Held): void {
    const now = this.now();
    for (const [token, other] of this.previews) {
      if (now - other.createdAt > PREVIEW_TTL_MS) void this.discard(token);
    }
    while (this.previews.size >= MAX_PREVIEWS) {
      const [oldest] = this.previews.keys();
      if (oldest === undefined) break;
      // Fire-and-forget: removing the copy of a preview nobody can use any more.
      void this.discard(oldest);
    }
    this.previews.set(held.token, held);
  }

  private held(token: string): Held {
    const held = this.previews.get(token);
    if (!held || this.now() - held.createdAt > PREVIEW_TTL_MS)
      throw new HostError('not_found', 'This bundle is no longer open; open the file again');
    return held;
  }

  private get incoming(): string {
    return join(this.root, '.incoming');
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

/** The entry's settings that are not about what runs (disabled, disabledTools, timeouts, roots…). */
function kept(entry: ServerConfig | undefined): Record<string, unknown> {
  if (!entry) return {};
  return Object.fromEntries(Object.entries(entry).filter(([key]) => !LAUNCH_KEYS.has(key)));
}

function pick(table: Readonly<Record<string, string>>, keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(table).filter(([key]) => keys.includes(key)));
}

function sameLaunch(launch: BundleRecord['launch'], config: StdioServerConfig): boolean {
  const sorted = (env: Record<string, string>) =>
    JSON.stringify(Object.entries(env).sort(([a], [b]) => (a < b ? -1 : 1)));
  return (
    launch.command === config.command &&
    JSON.stringify(launch.args) === JSON.stringify(config.args ?? []) &&
    sorted(launch.env) === sorted(config.env ?? {})
  );
}

/** A manifest name made into a server name (letters, digits, spaces, dots, dashes, underscores; at most 64). */
export function serverNameOf(id: string): string {
  const name = id
    .replace(/[^A-Za-z0-9 ._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64)
    .trim();
  if (name === '')
    throw new HostError(
      'invalid_params',
      `The bundle's name "${id.slice(0, 80)}" cannot be used as a server name`,
    );
  return name;
}

function safeSegment(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 40) || 'bundle'
  );
}

async function executable(path: string): Promise<string | undefined> {
  return stat(path).then(
    (s) => (s.isFile() ? path : undefined),
    () => undefined,
  );
}

const mib = (bytes: number): string => `${String(Math.round(bytes / (1024 * 1024)))} MiB`;
