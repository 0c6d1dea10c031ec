import { readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BundlePreview, BundleValue } from '../../../../shared/model/bundle.js';
import type { ServerConfig, StdioServerConfig } from '../../../../shared/model/config.js';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { HostError } from '../../errors.js';
import type { Platform } from '../../platform.js';
import type { ConfigEditor } from '../../servers/config/config-editor.js';
import type { ConfigStore } from '../../servers/config/config-store.js';
import type { ServerManager } from '../../servers/server-manager.js';
import type { AppRuntime } from '../../servers/stdio/launch-spec.js';
import type { HostEnvironment } from '../../servers/stdio/login-env.js';
import { openBundle, unpackBundle } from './bundle-files.js';
import { loadMcpb } from './mcpb.js';
import type { McpbNode } from './mcpb.js';
import { checkSubstituted, manifestCommand, substitute, systemVariables } from './bundle-launch.js';
import { describeBundle } from './bundle-preview.js';
import { BundlePreviews } from './bundle-previews.js';
import type { HeldBundle } from './bundle-previews.js';
import { runtimeOf } from './bundle-runtime.js';
import type { UploadChunk } from './bundle-uploads.js';
import { settleValues } from './bundle-values.js';
import { InstalledBundles } from './installed-bundles.js';

/**
 * Installs servers from MCP bundles (.mcpb). A bundle is opened once into a
 * host-held preview (a token; the renderer never names a path), shown, and
 * installed with the person's answers:
 *
 *   open   → signature, archive and manifest checked; a private copy kept in
 *            `<data>/bundles/.incoming/` so the file cannot change between
 *            what was shown and what is installed (bundle-previews.ts);
 *   install → settings checked → the EXISTING launch confirmation (the exact
 *            command line) → files unpacked into `<data>/bundles/<server>/<slot>`
 *            (staging folder, then rename) → secrets encrypted → the entry
 *            written to the configuration → started like any other server.
 *
 * A failure at any step leaves nothing behind: no folder, no secret, no entry.
 * What an installed bundle owns afterwards is kept by installed-bundles.ts.
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

const RECORDS_FILE = 'bundle-installs.json';
/** Keys of an entry that describe what runs; everything else (disabled, disabledTools, timeouts…) survives an update. */
const LAUNCH_KEYS = new Set(['type', 'command', 'args', 'env', 'cwd', 'bundle']);

export class BundleInstaller {
  private readonly installed: InstalledBundles;
  private readonly previews: BundlePreviews;
  private readonly root: string;

  constructor(private readonly options: BundleInstallerOptions) {
    this.root = join(options.dataDir, 'bundles');
    this.installed = new InstalledBundles({
      root: this.root,
      recordsFile: join(options.dataDir, RECORDS_FILE),
      platform: options.platform,
      servers: options.servers,
      store: options.store,
    });
    this.previews = new BundlePreviews({
      root: this.root,
      platform: options.platform,
      mcpb: () => this.mcpb(),
      now: () => this.now(),
    });
  }

  /** Removes what an interrupted run left (staging folders, preview copies). */
  async cleanup(): Promise<void> {
    await rm(this.previews.incoming, { recursive: true, force: true }).catch(() => undefined);
    const servers = await readdir(this.root).catch(() => []);
    for (const server of servers) {
      const slots = await readdir(join(this.root, server)).catch(() => []);
      for (const slot of slots.filter((name) => name.startsWith('.staging-')))
        await rm(join(this.root, server, slot), { recursive: true, force: true }).catch(() => undefined);
    }
  }

  uploadChunk(chunk: UploadChunk): { uploadId: string; received: number } {
    return this.previews.uploadChunk(chunk);
  }

  /** Opens an upload, or a file the person picks in the host's own dialog (null when cancelled). */
  async previewSource(
    source: { kind: 'upload'; uploadId: string } | { kind: 'pick' },
  ): Promise<BundlePreview | null> {
    const held = await this.previews.openSource(source);
    return held === null ? null : this.describe(held);
  }

  /** Opens a bundle file on this computer (the CLI, the native dialog). */
  async previewFile(path: string): Promise<BundlePreview> {
    return this.describe(await this.previews.openFile(path));
  }

  async previewBytes(bytes: Buffer, fileName: string): Promise<BundlePreview> {
    return this.describe(await this.previews.openBytes(bytes, fileName));
  }

  /** Forgets a preview (Cancel). */
  discard(token: string): Promise<void> {
    return this.previews.discard(token);
  }

  /** The host's picker for a directory or file setting; null when cancelled or when there is no dialog. */
  pickPath(token: string, key: string): Promise<string | null> {
    return this.previews.pickPath(token, key);
  }

  /**
   * Installs (or updates) the previewed bundle with the person's answers.
   * Ends in the launch confirmation; nothing is unpacked before it is allowed.
   */
  async install(token: string, answers: Readonly<Record<string, BundleValue>>): Promise<ServerSnapshot> {
    const held = this.previews.held(token);
    const preview = await this.describe(held);
    const [blocker] = preview.blockers;
    if (blocker !== undefined) throw new HostError('denied', `Nothing was installed: ${blocker}`);
    const { manifest } = held.opened;
    const previous = await this.installed.sameBundle(held.serverName, manifest.name);
    const dir = this.dirOf(held);
    const system = systemVariables();
    const settled = await settleValues(
      manifest.user_config ?? {},
      answers,
      previous ? { values: previous.values, secretKeys: new Set(Object.keys(previous.secrets)) } : undefined,
      (text) =>
        substitute({ command: text, args: [], env: {} }, { dir, system, values: {}, sensitive: new Set() })
          .command,
    );
    const launch = substitute(manifestCommand(manifest), {
      dir,
      system,
      values: settled.values,
      sensitive: sensitiveKeys(held),
    });
    checkSubstituted(launch);
    const existing = this.options.store.servers()[held.serverName];
    const config: StdioServerConfig = {
      ...kept(existing),
      command: launch.command,
      args: launch.args,
      ...(Object.keys(launch.env).length > 0 ? { env: launch.env } : {}),
      bundle: { id: manifest.name, version: manifest.version },
    };

    const records = this.installed.records;
    const stored: Record<string, string> = {};
    const done = { unpacked: false };
    const prepare = async () => {
      const zip = (await openBundle(await readFile(held.copy), await this.mcpb())).zip;
      await unpackBundle(zip, held.opened.entries, dir);
      done.unpacked = true;
      for (const [key, secret] of Object.entries(settled.secrets))
        stored[key] = await this.options.platform.encryptSecret(secret);
      const secrets = { ...pick(previous?.secrets ?? {}, settled.keptSecrets), ...stored };
      await records.set(held.serverName, {
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
      await this.installed.forgetSecrets(Object.values(stored));
      if (previous) await records.set(held.serverName, previous).catch(() => undefined);
      else await records.delete(held.serverName).catch(() => undefined);
      throw error;
    }
    await this.discard(token);
    if (previous) await this.installed.dropReplaced(previous, dir, settled.keptSecrets);
    return snapshot;
  }

  /** Removes a bundle-installed server: its entry, its files and its secrets. */
  uninstall(name: string): Promise<void> {
    return this.installed.uninstall(name);
  }

  /** Bundles whose entry left the configuration some other way lose their files and secrets too. */
  forgetOrphans(): Promise<void> {
    return this.installed.forgetOrphans();
  }

  /** Whether a server was installed from a bundle (its removal is an uninstall). */
  isBundle(name: string): Promise<boolean> {
    return this.installed.isBundle(name);
  }

  /** The secrets for one spawn of the command line the bundle installed. */
  secretsFor(name: string, config: StdioServerConfig): Promise<Record<string, string>> {
    return this.installed.secretsFor(name, config);
  }

  private async describe(held: HeldBundle): Promise<BundlePreview> {
    const { manifest } = held.opened;
    const dir = this.dirOf(held);
    const installed = await this.installed.sameBundle(held.serverName, manifest.name);
    const existing =
      this.options.servers.has(held.serverName) ||
      this.options.store.servers()[held.serverName] !== undefined;
    // Shown with every setting still a placeholder: the values are not known before the form.
    const all = new Set([...sensitiveKeys(held), ...Object.keys(manifest.user_config ?? {})]);
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
      runtime: await runtimeOf(launch, held.opened, dir, this.options),
      installed,
      clash: existing && installed === undefined,
      platform: process.platform,
    });
  }

  private dirOf(held: HeldBundle): string {
    return join(this.root, held.serverName, held.slot);
  }

  private mcpb(): Promise<McpbNode> {
    return (this.options.mcpb ?? loadMcpb)();
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

/** The settings the manifest marks sensitive (kept as placeholders in the entry). */
function sensitiveKeys(held: HeldBundle): Set<string> {
  return new Set(
    Object.entries(held.opened.manifest.user_config ?? {})
      .filter(([, option]) => option.sensitive === true)
      .map(([key]) => key),
  );
}

/** The entry's settings that are not about what runs (disabled, disabledTools, timeouts, roots…). */
function kept(entry: ServerConfig | undefined): Record<string, unknown> {
  if (!entry) return {};
  return Object.fromEntries(Object.entries(entry).filter(([key]) => !LAUNCH_KEYS.has(key)));
}

function pick(table: Readonly<Record<string, string>>, keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(table).filter(([key]) => keys.includes(key)));
}
