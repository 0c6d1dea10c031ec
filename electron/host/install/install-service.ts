import { randomUUID } from 'node:crypto';
import type {
  InstallOption,
  InstallPreview,
  InstallRequest,
  PendingInstall,
  RegistryPage,
} from '../../../shared/model/registry.js';
import type { ServerInput } from '../../../shared/model/server-input.js';
import type { ServerSnapshot } from '../../../shared/model/server.js';
import { HostError } from '../errors.js';
import type { HostEventSink } from '../ipc/handlers.js';
import type { ServerSecrets } from '../secrets/server-secrets.js';
import type { HostEnvironment } from '../servers/stdio/login-env.js';
import { buildInstall, templateOf } from './install-recipe.js';
import type { Recipe } from './install-recipe.js';
import { parseInstallLink } from './install-links.js';
import { entryOptions } from './registry/entry-options.js';
import { entryView, webUrl } from './registry/registry-client.js';
import type { RegistryClient } from './registry/registry-client.js';
import type { ServerResponse } from './registry/registry-schema.js';
import { checkRuntime } from './runtime-check.js';
import { freeServerName } from './server-name.js';

export interface InstallServiceOptions {
  registry: RegistryClient;
  /** The registry URL setting, read at each request. */
  registryUrl: () => Promise<string>;
  environment: () => Promise<HostEnvironment>;
  /** Names in the configuration now. */
  serverNames: () => readonly string[];
  /**
   * Adds the server the way the add form does (ConfigEditor.save): the launch
   * confirmation, the file, the start. Rejects when the person declines.
   */
  save: (input: ServerInput) => Promise<ServerSnapshot>;
  secrets: ServerSecrets;
  emit: HostEventSink;
}

interface Pending {
  view: PendingInstall;
  recipes: (Recipe | undefined)[];
  createdAt: number;
}

/** Installs prepared and not yet done; the oldest go first past this many. */
const MAX_PENDING = 20;
/** A prepared install nobody finished is dropped after this long. */
const PENDING_TTL_MS = 60 * 60 * 1000;

/**
 * Installing servers from the MCP registry and from install links. Both end
 * the same way: the host prepares a pending install from what it fetched or
 * received itself (the renderer only ever names its id, so it cannot
 * install a command the host did not get from the registry or a link), the
 * person fills in its values, sees the exact command or URL, and confirms;
 * then the entry is saved through the add form's path, which asks the launch
 * confirmation before anything is spawned.
 */
export class InstallService {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly options: InstallServiceOptions) {}

  async search(query: string, cursor: string | undefined): Promise<RegistryPage> {
    const registryUrl = await this.options.registryUrl();
    return (await this.options.registry.search(registryUrl, query, cursor)).page;
  }

  /** A registry entry, fetched by the host, as a pending install. */
  async prepareRegistry(name: string, version: string): Promise<PendingInstall> {
    const registryUrl = await this.options.registryUrl();
    const response = await this.options.registry.get(registryUrl, name, version);
    return this.hold('registry', registryUrl, response);
  }

  /**
   * An install link (from the OS, or `mcp-host install --link`): checked,
   * prepared, and announced to every open page, which shows it for the
   * person to confirm. Nothing is installed here.
   */
  async receiveLink(link: string): Promise<PendingInstall> {
    const parsed = parseInstallLink(link);
    let view: PendingInstall;
    if (parsed.kind === 'registry') {
      const registryUrl = await this.options.registryUrl();
      const response = await this.options.registry.get(registryUrl, parsed.registryName, parsed.version);
      view = await this.hold('link', `an install link (entry from ${registryUrl})`, response, parsed.name);
    } else {
      const recipe = parsed.recipe;
      const { options, runtimeWarning } = await this.linkOption(recipe);
      view = this.store(
        {
          source: 'link',
          origin: 'an install link',
          suggestedName: freeServerName(parsed.name, this.options.serverNames()),
          entryName: parsed.name,
          options,
          warnings: [...parsed.warnings, ...(runtimeWarning !== undefined ? [runtimeWarning] : [])],
        },
        [recipe],
      );
    }
    this.options.emit('installRequested', view);
    return view;
  }

  /** Pending link installs, oldest first (a page that connects late shows them). */
  list(): PendingInstall[] {
    this.expire();
    return [...this.pending.values()].filter((p) => p.view.source === 'link').map((p) => p.view);
  }

  /** Exactly what installing with these values would write and run (secrets masked). */
  async preview(request: InstallRequest): Promise<InstallPreview> {
    return (await this.build(request)).built.preview;
  }

  /**
   * Installs: the secrets are stored first (the entry refers to them), then
   * the entry is saved, which asks the launch confirmation; if that is
   * declined or anything fails, the secrets are put back as they were.
   */
  async install(request: InstallRequest): Promise<ServerSnapshot> {
    const { built } = await this.build(request);
    const { secrets } = this.options;
    const before = await secrets.get(request.name);
    const hasSecrets = Object.keys(built.secrets).length > 0;
    if (hasSecrets) await secrets.set(request.name, built.secrets);
    let snapshot: ServerSnapshot;
    try {
      snapshot = await this.options.save(built.input);
    } catch (error) {
      if (hasSecrets) await secrets.set(request.name, before).catch(() => undefined);
      throw error;
    }
    this.dismiss(request.id);
    return snapshot;
  }

  /** The person closed the install without installing. */
  dismiss(id: string): void {
    if (this.pending.delete(id)) this.options.emit('installResolved', { id });
  }

  private async build(request: InstallRequest) {
    this.expire();
    const pending = this.pending.get(request.id);
    if (!pending) {
      throw new HostError(
        'not_found',
        'This install is no longer waiting (it was done or closed, or the app restarted)',
      );
    }
    const option = pending.view.options[request.option];
    const recipe = pending.recipes[request.option];
    if (!option) throw new HostError('invalid_params', 'This install has no such option');
    if (option.problem !== undefined) throw new HostError('invalid_params', option.problem);
    if (!recipe) throw new HostError('invalid_params', 'This install has no such option');
    if (this.options.serverNames().includes(request.name)) {
      const free = freeServerName(request.name, this.options.serverNames());
      throw new HostError(
        'conflict',
        `A server named "${request.name}" already exists; use another name, such as "${free}"`,
      );
    }
    const built = buildInstall(recipe, request.name, request.values);
    if (option.runtime) {
      // Checked again: the PATH may have changed since the entry was opened.
      const runtime = await checkRuntime(option.runtime.command, await this.options.environment());
      if (!runtime.found)
        throw new HostError('not_found', runtime.note ?? `${runtime.command} was not found`);
      built.preview.runtime = runtime;
    }
    return { pending, built };
  }

  private async hold(
    source: PendingInstall['source'],
    origin: string,
    response: ServerResponse,
    linkName?: string,
  ): Promise<PendingInstall> {
    const entry = entryView(response);
    const options = entryOptions(response);
    const environment = await this.options.environment();
    const views: InstallOption[] = [];
    for (const option of options) {
      if (option.runtime === undefined || option.view.problem !== undefined) {
        views.push(option.view);
        continue;
      }
      const runtime = await checkRuntime(option.runtime, environment);
      views.push({ ...option.view, runtime, ...(runtime.found ? {} : { problem: runtime.note }) });
    }
    const warnings: string[] = [];
    if (entry.status === 'deprecated' || entry.status === 'deleted') {
      warnings.push(
        `The registry marks this entry ${entry.status}${entry.statusMessage !== undefined ? `: ${entry.statusMessage}` : ''}`,
      );
    }
    if (options.length === 0) warnings.push('The entry lists no package or remote server to install');
    const lastSegment = response.server.name.split('/').pop() ?? response.server.name;
    const repositoryUrl = webUrl(response.server.repository?.url);
    return this.store(
      {
        source,
        origin,
        suggestedName: freeServerName(linkName ?? lastSegment, this.options.serverNames()),
        entryName: response.server.name,
        ...(entry.title !== undefined ? { title: entry.title } : {}),
        description: entry.description,
        version: entry.version,
        ...(repositoryUrl !== undefined ? { repositoryUrl } : {}),
        options: views,
        warnings,
      },
      options.map((o) => o.recipe),
    );
  }

  /** A link's single option, with its runtime checked when it is a launcher we know. */
  private async linkOption(recipe: Recipe): Promise<{ options: InstallOption[]; runtimeWarning?: string }> {
    const base: InstallOption = {
      index: 0,
      kind: recipe.kind === 'remote' ? 'remote' : 'other',
      label: recipe.kind === 'remote' ? 'Remote server' : 'Local command',
      template: templateOf(recipe),
      fields: [...recipe.fields],
    };
    if (recipe.kind !== 'stdio' || !['npx', 'uvx', 'docker'].includes(recipe.command))
      return { options: [base] };
    const runtime = await checkRuntime(recipe.command, await this.options.environment());
    return { options: [{ ...base, runtime, ...(runtime.found ? {} : { problem: runtime.note }) }] };
  }

  private store(view: Omit<PendingInstall, 'id'>, recipes: (Recipe | undefined)[]): PendingInstall {
    this.expire();
    while (this.pending.size >= MAX_PENDING) {
      const oldest = this.pending.keys().next().value;
      if (oldest === undefined) break;
      this.dismiss(oldest);
    }
    const id = randomUUID();
    const full: PendingInstall = { id, ...view };
    this.pending.set(id, { view: full, recipes, createdAt: Date.now() });
    return full;
  }

  private expire(): void {
    const now = Date.now();
    for (const [id, pending] of this.pending) if (now - pending.createdAt > PENDING_TTL_MS) this.dismiss(id);
  }
}
