import { randomBytes } from 'node:crypto';
import { toolResourceUri } from '../../../shared/model/tool-meta.js';
import type { AppOrigin, AppPermission, AppView } from '../../../shared/model/apps.js';
import type { LogLevel } from '../../../shared/model/logs.js';
import { HostError } from '../errors.js';
import type { ServerLogs } from '../servers/lifecycle/server-log.js';
import type { ServerManager } from '../servers/server-manager.js';
import { loadAppResource } from './app-resource.js';
import { buildAppCsp } from './csp.js';

/** Views kept at once; opening more forgets the oldest (its frame then gets "unknown view"). */
const MAX_VIEWS = 256;

/** Where the shell serves the sandbox proxy, set once the shell has it. */
export interface SandboxLocation {
  /** Origin of the proxy pages, e.g. http://127.0.0.1:53111 or mcp-app://sandbox. */
  origin: string;
  /** The host window's origins the proxy may talk to; empty where it has none (file://). */
  hostOrigins: readonly string[];
  /** Whether the sandbox can receive CSP violation reports (HTTP only). */
  reports: boolean;
}

/** One app view the host prepared, and what the app is allowed. */
export interface ViewRecord {
  viewId: string;
  server: string;
  tool: string;
  resourceUri: string;
  origin: AppOrigin;
  /** The app's Content-Security-Policy (the proxy page's header). */
  policy: string;
  declaredPermissions: AppPermission[];
  granted: Set<AppPermission>;
  /** CSP violation reports logged so far (a hostile app could send many). */
  reportsLogged: number;
}

/**
 * The app views the host has prepared. Opening one reads the tool's `ui://`
 * resource from its own server, builds its CSP, and gives it an unguessable
 * id that every later request of the app names; the host checks each of
 * those requests against the view's server and tool, never the renderer's
 * word. Lines about an app go into its server's log.
 */
export class AppViews {
  private readonly views = new Map<string, ViewRecord>();
  private sandbox: SandboxLocation | undefined;

  constructor(
    private readonly servers: ServerManager,
    private readonly logs: ServerLogs,
  ) {}

  /** Called by the shell that serves the sandbox proxy (Electron protocol, headless second server). */
  bindSandbox(location: SandboxLocation): void {
    this.sandbox = location;
  }

  get sandboxLocation(): SandboxLocation | undefined {
    return this.sandbox;
  }

  async open(request: { server: string; tool: string; origin: AppOrigin }): Promise<AppView> {
    const sandbox = this.sandbox;
    if (!sandbox)
      throw new HostError('not_found', 'Apps are shown only in the desktop app or the headless shell');
    const connection = this.servers.get(request.server);
    const tool = connection.catalog?.tools.find((t) => t.name === request.tool);
    if (!tool)
      throw new HostError('not_found', `Server "${request.server}" has no tool named "${request.tool}"`);
    const uri = toolResourceUri(tool);
    if (uri === undefined) throw new HostError('not_found', `Tool "${request.tool}" has no app`);
    let resource;
    try {
      resource = await loadAppResource(connection, uri);
    } catch (error) {
      if (error instanceof HostError) this.log(request.server, uri, 'warning', error.message);
      throw error;
    }
    const viewId = randomBytes(18).toString('base64url');
    const csp = buildAppCsp(resource.csp, {
      reportUri: sandbox.reports ? `${sandbox.origin}/csp-report/${viewId}` : undefined,
      forbiddenOrigins: [sandbox.origin, ...sandbox.hostOrigins],
    });
    for (const line of csp.refused) this.log(request.server, uri, 'warning', `CSP entry ${line}`);
    this.log(request.server, uri, 'info', `App opened for ${request.tool}; policy: ${csp.policy}`);
    this.remember({
      viewId,
      server: request.server,
      tool: request.tool,
      resourceUri: uri,
      origin: request.origin,
      policy: csp.policy,
      declaredPermissions: resource.permissions,
      granted: new Set(),
      reportsLogged: 0,
    });
    return {
      viewId,
      server: request.server,
      tool: request.tool,
      resourceUri: uri,
      html: resource.html,
      csp: csp.accepted,
      refusedCsp: csp.refused,
      permissions: resource.permissions,
      ...(resource.prefersBorder !== undefined ? { prefersBorder: resource.prefersBorder } : {}),
      proxyUrl: `${sandbox.origin}/view/${viewId}`,
    };
  }

  /** The view an app request names; unknown or closed views are refused. */
  get(viewId: string): ViewRecord {
    const view = this.views.get(viewId);
    if (!view) throw new HostError('not_found', 'This app view is closed');
    return view;
  }

  close(viewId: string): void {
    this.views.delete(viewId);
  }

  /** Grants the person's choice, never more than the resource declared. */
  grant(viewId: string, permissions: readonly AppPermission[]): AppPermission[] {
    const view = this.get(viewId);
    for (const p of permissions) {
      if (!view.declaredPermissions.includes(p)) {
        throw new HostError('denied', `The app did not ask for "${p}"`);
      }
    }
    view.granted = new Set(permissions);
    if (permissions.length > 0) {
      this.log(view.server, view.resourceUri, 'info', `Permissions granted: ${permissions.join(', ')}`);
    }
    return [...view.granted];
  }

  /** One line in the app's server log, marked with the app's resource. */
  log(server: string, resourceUri: string, level: LogLevel, text: string): void {
    this.logs.append(server, { source: 'host', level, logger: `app ${resourceUri}`, text });
  }

  private remember(view: ViewRecord): void {
    this.views.set(view.viewId, view);
    while (this.views.size > MAX_VIEWS) {
      const oldest = this.views.keys().next();
      if (oldest.done === true) break;
      this.views.delete(oldest.value);
    }
  }

  /** Forgets every view (the host is ending). */
  clear(): void {
    this.views.clear();
  }

  /** Internal to the sandbox responder. */
  find(viewId: string): ViewRecord | undefined {
    return this.views.get(viewId);
  }
}
