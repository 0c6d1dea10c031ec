import { callableByApp } from '../../../shared/model/tool-meta.js';
import type { AppResourceResult, AppToolResult } from '../../../shared/model/apps.js';
import { toAppToolResult } from '../../../shared/model/app-tool-result.js';
import { analyzeUrl } from '../../../shared/model/elicitation-url.js';
import type { LogLevel } from '../../../shared/model/logs.js';
import type { ToolConsent } from '../chat/tool-consent.js';
import type { ConsentBroker } from '../consent/consent-broker.js';
import { HostError, describeError, oneLine } from '../errors.js';
import type { ServerManager } from '../servers/server-manager.js';
import type { AppModelContext } from './app-model-context.js';
import type { AppViews, ViewRecord } from './app-views.js';

/** Largest resources/read result an app gets (characters of text and base64 together). */
const MAX_APP_READ_CHARS = 10 * 1024 * 1024;
/** Log lines an app may write per window, then its lines are dropped (and that is said once). */
const LOG_LINES_PER_WINDOW = 100;
const LOG_WINDOW_MS = 10_000;

export interface AppRequestDeps {
  views: AppViews;
  servers: ServerManager;
  broker: ConsentBroker;
  toolConsent: () => Promise<ToolConsent>;
  openExternal: (url: string) => Promise<void>;
  modelContext: AppModelContext;
}

/**
 * What an app may ask of the host, each through the host's policy: tools of
 * its own server whose visibility includes "app", after the same consent as
 * Claude's calls; resources of its own server; links after consent; log
 * lines and model context. An app names only its view; the server is the
 * view's, so no request of an app can reach another server. One consent
 * dialog per view waits at a time, so an app cannot bury the person in them.
 */
export class AppRequests {
  private readonly asking = new Set<string>();
  private readonly logBudget = new Map<string, { windowStart: number; lines: number; dropped: boolean }>();

  constructor(private readonly deps: AppRequestDeps) {}

  async callTool(
    viewId: string,
    name: string,
    args: Record<string, unknown> | undefined,
  ): Promise<AppToolResult> {
    const view = this.deps.views.get(viewId);
    const connection = this.deps.servers.get(view.server);
    const tool = connection.catalog?.tools.find((t) => t.name === name);
    if (!tool)
      throw this.refuse(
        view,
        'not_found',
        `tools/call of "${name}": server "${view.server}" has no such tool`,
      );
    if (!callableByApp(tool)) {
      throw this.refuse(
        view,
        'denied',
        `tools/call of "${name}": the tool's visibility does not include "app"`,
      );
    }
    const decision = await this.oneAtATime(view, async () =>
      (await this.deps.toolConsent()).decide(
        {
          server: view.server,
          tool,
          args: args ?? {},
          ...(view.origin.kind === 'chat' ? { conversationId: view.origin.conversationId } : {}),
          appResourceUri: view.resourceUri,
        },
        new AbortController().signal,
      ),
    );
    if (!decision.allowed) throw this.refuse(view, 'denied', `tools/call of "${name}" was declined`, 'info');
    this.deps.views.log(
      view.server,
      view.resourceUri,
      'info',
      `tools/call ${name} (allowed by ${decision.by})`,
    );
    const result = await this.deps.servers.callTool(view.server, name, JSON.stringify(args ?? {}));
    return toAppToolResult(result);
  }

  async readResource(viewId: string, uri: string): Promise<AppResourceResult> {
    const view = this.deps.views.get(viewId);
    const connection = this.deps.servers.get(view.server);
    try {
      connection.requireCapability('resources');
    } catch (error) {
      throw this.refuse(view, 'not_found', `resources/read ${uri}: ${describeError(error)}`);
    }
    const result = await connection.request(`resources/read ${uri}`, (client) =>
      client.readResource({ uri }, { cacheMode: 'bypass' }),
    );
    let size = 0;
    const contents = result.contents.map((item) => {
      const text = 'text' in item && typeof item.text === 'string' ? item.text : undefined;
      const blob = 'blob' in item && typeof item.blob === 'string' ? item.blob : undefined;
      size += (text ?? blob ?? '').length;
      return {
        uri: item.uri,
        ...(typeof item.mimeType === 'string' ? { mimeType: item.mimeType } : {}),
        ...(text !== undefined ? { text } : {}),
        ...(blob !== undefined ? { blob } : {}),
      };
    });
    if (size > MAX_APP_READ_CHARS)
      throw this.refuse(view, 'denied', `resources/read ${uri}: the result is too large`);
    return { contents };
  }

  async openLink(viewId: string, url: string): Promise<void> {
    const view = this.deps.views.get(viewId);
    if (!analyzeUrl(url).openable)
      throw this.refuse(view, 'invalid_params', `ui/open-link refused: "${url}" is not a web link`);
    const answer = await this.oneAtATime(view, () =>
      this.deps.broker.ask('elicitationUrl', view.server, {
        message: `The app ${view.resourceUri} asks you to open this link.`,
        url,
        elicitationId: '',
      }),
    );
    if (answer.action !== 'accept')
      throw this.refuse(view, 'denied', `ui/open-link ${url} was declined`, 'info');
    this.deps.views.log(view.server, view.resourceUri, 'info', `Opened ${url} in the browser`);
    await this.deps.openExternal(url);
  }

  /**
   * A line about an app into its server's log: the app's own notifications/message, or what the
   * renderer saw of it. Each source has its own budget per view, so an app that floods its own
   * log cannot hide the host's lines about it.
   */
  log(
    viewId: string,
    level: LogLevel,
    logger: string | undefined,
    data: unknown,
    source: 'app' | 'host' = 'app',
  ): void {
    const view = this.deps.views.get(viewId);
    const now = Date.now();
    const key = `${source} ${viewId}`;
    const budget = this.logBudget.get(key) ?? { windowStart: now, lines: 0, dropped: false };
    if (now - budget.windowStart > LOG_WINDOW_MS)
      Object.assign(budget, { windowStart: now, lines: 0, dropped: false });
    this.logBudget.set(key, budget);
    budget.lines++;
    if (budget.lines > LOG_LINES_PER_WINDOW) {
      if (!budget.dropped) {
        budget.dropped = true;
        this.deps.views.log(
          view.server,
          view.resourceUri,
          'warning',
          'The app logs too fast; its lines are dropped for a while',
        );
      }
      return;
    }
    const text = typeof data === 'string' ? data : data === undefined ? '' : JSON.stringify(data);
    const prefix = logger !== undefined ? `[${oneLine(logger, 64)}] ` : '';
    this.deps.views.log(view.server, view.resourceUri, level, `${prefix}${oneLine(text, 2000)}`);
  }

  updateModelContext(
    viewId: string,
    update: {
      content?: Record<string, unknown>[] | undefined;
      structuredContent?: Record<string, unknown> | undefined;
    },
  ): void {
    const view = this.deps.views.get(viewId);
    if (view.origin.kind !== 'chat') {
      throw new HostError('invalid_params', 'Only an app in a conversation can add to the model context');
    }
    this.deps.modelContext.set(view.origin.conversationId, viewId, {
      server: view.server,
      resourceUri: view.resourceUri,
      content: update.content,
      structuredContent: update.structuredContent,
    });
  }

  /** Logs a refused request in the app's server log and returns the error the app gets. */
  private refuse(
    view: ViewRecord,
    code: 'not_found' | 'denied' | 'invalid_params',
    text: string,
    level: LogLevel = 'warning',
  ): HostError {
    this.deps.views.log(view.server, view.resourceUri, level, `Refused ${text}`);
    return new HostError(code, `Refused ${text}`);
  }

  private async oneAtATime<T>(view: ViewRecord, ask: () => Promise<T>): Promise<T> {
    if (this.asking.has(view.viewId)) {
      throw this.refuse(view, 'denied', 'a request: another request of this app is waiting for the person');
    }
    this.asking.add(view.viewId);
    try {
      return await ask();
    } finally {
      this.asking.delete(view.viewId);
    }
  }
}
