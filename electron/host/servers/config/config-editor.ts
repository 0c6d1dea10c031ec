import { readFile, stat } from 'node:fs/promises';
import { checkConfigText } from '../../../../shared/model/config-text.js';
import type { ServerConfig } from '../../../../shared/model/config.js';
import { isStdioConfig } from '../../../../shared/model/config.js';
import type { ConfigState } from '../../../../shared/model/app.js';
import type {
  ImportLocation,
  ImportPreview,
  ImportRequest,
  ImportResult,
  ImportSource,
} from '../../../../shared/model/import.js';
import type { ServerInput } from '../../../../shared/model/server-input.js';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { HostError, describeError } from '../../errors.js';
import type { LaunchRequest } from '../../platform.js';
import { replaceEntry } from './config-store.js';
import type { ConfigStore } from './config-store.js';
import {
  SOURCE_LABELS,
  importLocations,
  parseImportText,
  previewServers,
  substituteInputs,
} from './config-import.js';
import type { LocationContext, ParsedImport } from './config-import.js';
import {
  inputOf,
  launchOf,
  mergeInput,
  needsLaunchConsent,
  nextSandbox,
  withoutKey,
} from './server-config-edit.js';
import type { SandboxChange } from './server-config-edit.js';
import { checkSandboxConfig } from '../../../../shared/model/sandbox.js';
import type { ServerManager } from '../server-manager.js';

export interface ConfigEditorOptions {
  /** One question for every server that needs the launch confirmation (see Platform). */
  confirmLaunches: (requests: readonly LaunchRequest[]) => Promise<boolean>;
  /** Where other hosts' files are looked for (OS, home folder, environment). */
  locations: LocationContext;
}

/**
 * Every change the UI makes to the configuration: the edit form (stdio and
 * remote), enable/disable of servers and tools, the raw JSON editor and
 * imports from other hosts. Each goes through the config schema, asks
 * before a new or changed local command is first started, writes the file,
 * then restarts what changed.
 */
export class ConfigEditor {
  constructor(
    private readonly store: ConfigStore,
    private readonly servers: ServerManager,
    private readonly options: ConfigEditorOptions,
  ) {}

  inputOf(name: string): ServerInput {
    return inputOf(name, this.entry(name));
  }

  /** Adds (no originalName) or replaces a server, then (re)starts it unless it is disabled. */
  async save(originalName: string | undefined, input: ServerInput): Promise<ServerSnapshot> {
    const previous = originalName !== undefined ? this.entry(originalName) : undefined;
    if (input.name !== originalName && this.servers.has(input.name)) {
      throw new HostError('conflict', `A server named "${input.name}" already exists`);
    }
    const config = mergeInput(previous, input);
    await this.confirm(input.name, previous, config);
    await this.store.update((table) => {
      // Rebuilt in order, so a renamed server keeps its place in the file.
      const next = replaceEntry({ ...table }, originalName, input.name, config);
      for (const key of Object.keys(table)) Reflect.deleteProperty(table, key);
      Object.assign(table, next);
    });
    const connection = await this.servers.install(input.name, config, originalName);
    return config.disabled === true ? connection.snapshot() : connection.start();
  }

  /**
   * Adds or replaces an entry the host made itself (a bundle install): the
   * same launch confirmation as the form, then `prepare` (e.g. unpacking the
   * files the command runs; nothing is written when it throws), the write,
   * and the (re)start.
   */
  async saveEntry(name: string, config: ServerConfig, prepare: () => Promise<void>): Promise<ServerSnapshot> {
    const previous = this.store.servers()[name];
    if (!(await this.options.confirmLaunches([launchOf(name, config)]))) {
      throw new HostError('denied', `Starting "${name}" was not allowed, so nothing was installed`);
    }
    await prepare();
    await this.store.update((table) => {
      table[name] = config;
    });
    const connection = await this.servers.install(name, config, previous !== undefined ? name : undefined);
    return config.disabled === true ? connection.snapshot() : connection.start();
  }

  /** A disabled server is stopped and not started at launch; enabling starts it. */
  async setServerEnabled(name: string, enabled: boolean): Promise<ServerSnapshot> {
    const connection = this.servers.get(name);
    const config = this.entry(name);
    const next = enabled ? withoutKey(config, 'disabled') : { ...config, disabled: true };
    await this.store.update((table) => {
      table[name] = next;
    });
    connection.setConfig(next);
    return enabled ? connection.start() : connection.stop();
  }

  /**
   * The sandbox of a local server: "Run without sandbox" (`sandbox.enabled:
   * false`) and its lists, each replaced whole; empty ones and the whole key
   * are dropped again when nothing is left. Checked with the config file's
   * schema first: a malformed value is refused naming its key and nothing is
   * written. A running server restarts.
   */
  async setServerSandbox(name: string, change: SandboxChange): Promise<ServerSnapshot> {
    const connection = this.servers.get(name);
    const config = this.entry(name);
    if (!isStdioConfig(config))
      throw new HostError('invalid_params', `Server "${name}" is remote: it runs elsewhere`);
    const check = checkSandboxConfig(nextSandbox(config.sandbox, change));
    if (!check.ok) throw new HostError('config_invalid', `Not saved: ${check.problem}`);
    const sandbox = check.config;
    const next = Object.keys(sandbox).length > 0 ? { ...config, sandbox } : withoutKey(config, 'sandbox');
    await this.store.update((table) => {
      table[name] = next;
    });
    connection.setConfig(next);
    const status = connection.snapshot().status;
    if (status === 'disabled' || status === 'stopped') {
      const snapshot = connection.snapshot();
      this.servers.announce(snapshot);
      return snapshot;
    }
    return connection.restart();
  }

  /**
   * The person allowed a host "always" for a sandboxed server: added to its
   * `sandbox.allowHosts`, without a restart (its proxy lets the host through already).
   */
  async allowHost(name: string, host: string): Promise<void> {
    const connection = this.servers.get(name);
    const config = this.entry(name);
    if (!isStdioConfig(config)) return;
    const hosts = config.sandbox?.allowHosts ?? [];
    if (hosts.includes(host)) return;
    const next = { ...config, sandbox: { ...config.sandbox, allowHosts: [...hosts, host] } };
    await this.store.update((table) => {
      table[name] = next;
    });
    connection.setConfig(next);
    this.servers.announce(connection.snapshot());
  }

  async setToolEnabled(name: string, tool: string, enabled: boolean): Promise<ServerSnapshot> {
    const connection = this.servers.get(name);
    const config = this.entry(name);
    const others = (config.disabledTools ?? []).filter((t) => t !== tool);
    const disabledTools = enabled ? others : [...others, tool];
    const next =
      disabledTools.length > 0 ? { ...config, disabledTools } : withoutKey(config, 'disabledTools');
    await this.store.update((table) => {
      table[name] = next;
    });
    connection.setConfig(next);
    const snapshot = connection.snapshot();
    this.servers.announce(snapshot);
    return snapshot;
  }

  /** `skills: false` turns a server's skills off for every conversation; on is the default (no key). */
  async setSkillsEnabled(name: string, enabled: boolean): Promise<void> {
    const connection = this.servers.get(name);
    const config = this.entry(name);
    const next = enabled ? withoutKey(config, 'skills') : { ...config, skills: false };
    await this.store.update((table) => {
      table[name] = next;
    });
    connection.setConfig(next);
  }

  async rawText(): Promise<{ path: string; text: string }> {
    return { path: this.store.path, text: await this.store.readText() };
  }

  /**
   * Writes the whole file after the same checks as loading it; invalid text
   * is refused and the file left untouched. Then reloads and reconnects.
   */
  async saveRawText(text: string): Promise<ConfigState> {
    const check = checkConfigText(text);
    if (!check.ok) {
      const first = check.issues[0];
      const where = first
        ? `${first.path || 'file'}${first.line !== undefined ? ` (line ${String(first.line)})` : ''}`
        : 'file';
      throw new HostError('config_invalid', `Not saved: ${where}: ${first?.message ?? 'invalid'}`);
    }
    const before = this.store.servers();
    const asking = Object.entries(check.config.mcpServers).filter(([name, config]) =>
      needsLaunchConsent(before[name], config),
    );
    if (asking.length > 0 && !(await this.options.confirmLaunches(asking.map(([n, c]) => launchOf(n, c))))) {
      const names = asking.map(([name]) => `"${name}"`).join(', ');
      throw new HostError('denied', `Starting ${names} was not allowed, so nothing was saved`);
    }
    await this.store.writeText(text, check.config);
    const state = await this.servers.load();
    // Fire-and-forget on purpose: startAll never rejects (failures become "failed" snapshots).
    void this.servers.startAll();
    return state;
  }

  async locations(): Promise<ImportLocation[]> {
    return Promise.all(
      importLocations(this.options.locations).map(async (location) => ({
        ...location,
        found: await stat(location.path).then(
          (s) => s.isFile(),
          () => false,
        ),
      })),
    );
  }

  async preview(source: ImportSource, text: string | undefined): Promise<ImportPreview> {
    const { parsed, path } = await this.readSource(source, text);
    const existing = new Set(Object.keys(this.store.servers()));
    const used = new Set(parsed.servers.flatMap((s) => s.inputIds));
    return {
      source,
      ...(path !== undefined ? { path } : {}),
      servers: previewServers(parsed.servers, existing),
      inputs: parsed.inputs.filter((input) => used.has(input.id)),
    };
  }

  /**
   * Imports the chosen servers. The source is read again here (never taken
   * from the renderer as a path); each entry is validated, gets its input
   * values, and a local one is only kept if the person allows its launch.
   */
  async import(request: ImportRequest): Promise<ImportResult> {
    const { parsed } = await this.readSource(request.source, request.text);
    const chosen = request.choices.flatMap((c) => (c.action === 'import' ? [c] : []));
    const targets = new Set<string>();
    const entries: [string, ServerConfig][] = [];
    for (const choice of chosen) {
      const found = parsed.servers.find((s) => s.name === choice.name);
      if (!found) throw new HostError('not_found', `"${choice.name}" is not in the imported file`);
      if (!found.config)
        throw new HostError(
          'config_invalid',
          `"${choice.name}" cannot be imported: ${found.problem ?? 'invalid'}`,
        );
      if (this.servers.has(choice.as) || targets.has(choice.as)) {
        throw new HostError('conflict', `A server named "${choice.as}" already exists; rename or skip it`);
      }
      targets.add(choice.as);
      entries.push([choice.as, substituteInputs(found.config, request.inputs)]);
    }
    // One question for all of them: the person chose them in the preview already.
    const allowed =
      entries.length === 0 ||
      (await this.options.confirmLaunches(entries.map(([name, config]) => launchOf(name, config))));
    const accepted = allowed ? entries : [];
    const declined = allowed ? [] : entries.map(([name]) => name);
    if (accepted.length > 0) {
      await this.store.update((table) => {
        for (const [name, config] of accepted) table[name] = config;
      });
    }
    for (const [name, config] of accepted) {
      const connection = await this.servers.install(name, config);
      // Started in the background: each reports its own state; start never rejects.
      if (config.disabled !== true) void connection.start();
    }
    return { imported: accepted.map(([name]) => name), declined };
  }

  private async readSource(
    source: ImportSource,
    text: string | undefined,
  ): Promise<{ parsed: ParsedImport; path?: string }> {
    if (source === 'pasted') {
      if (text === undefined || text.trim() === '')
        throw new HostError('invalid_params', 'Paste a configuration first');
      return { parsed: parseImportText(source, text) };
    }
    const location = importLocations(this.options.locations).find((l) => l.source === source);
    if (!location) throw new HostError('not_found', `No known location for ${SOURCE_LABELS[source]}`);
    let content: string;
    try {
      content = await readFile(location.path, 'utf8');
    } catch (error) {
      throw new HostError(
        'not_found',
        `Cannot read the ${SOURCE_LABELS[source]} configuration at ${location.path}: ${describeError(error)}`,
      );
    }
    return { parsed: parseImportText(source, content), path: location.path };
  }

  private entry(name: string): ServerConfig {
    this.servers.get(name);
    const config = this.store.servers()[name];
    if (!config) throw new HostError('not_found', `No server named "${name}"`);
    return config;
  }

  private async confirm(name: string, previous: ServerConfig | undefined, next: ServerConfig): Promise<void> {
    if (!needsLaunchConsent(previous, next)) return;
    if (!(await this.options.confirmLaunches([launchOf(name, next)]))) {
      throw new HostError('denied', `Starting "${name}" was not allowed, so nothing was saved`);
    }
  }
}
