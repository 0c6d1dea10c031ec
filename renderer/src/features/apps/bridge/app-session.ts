import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import { z } from 'zod';
import type { McpUiHostContext, McpUiResourcePermissions } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { HostApi } from '../../../../../shared/ipc/host-api.js';
import type { Result } from '../../../../../shared/ipc/result.js';
import type { AppPermission, AppToolResult, AppView } from '../../../../../shared/model/apps.js';
import type { DisplayMode } from './host-context.js';
import { guardMessages } from './message-guard.js';

/** What the session asks of the component that shows it. */
export interface AppSessionEvents {
  /** The app finished ui/initialize: it is live. */
  onInitialized(): void;
  /** The app's content size changed (px). */
  onSize(size: { width?: number | undefined; height?: number | undefined }): void;
  /**
   * The app asks for a display mode; the answer is the mode actually in
   * effect. `gesture`: the person has just clicked or typed inside the app's
   * frame. Throws (the app gets an error) when the change is refused.
   */
  onDisplayMode(mode: 'inline' | 'fullscreen' | 'pip', gesture: boolean): DisplayMode;
  /** ui/message: text for the person to review in the message box; false when there is no conversation. */
  onMessage(text: string): boolean;
  /** The app asked to be closed. */
  onRequestClose(): void;
}

/** Malformed messages of one app that are logged; the rest are only counted. */
const MAX_MALFORMED_LOGGED = 5;
/** How long teardown waits for the app's answer to ui/resource-teardown. */
const TEARDOWN_TIMEOUT_MS = 1_000;

/** The SDK's CallToolResult type, which our own AppToolResult mirrors (built by toAppToolResult). */
type McpCallToolResult = Parameters<AppBridge['sendToolResult']>[0];
type McpReadResourceResult = Awaited<ReturnType<NonNullable<AppBridge['onreadresource']>>>;

/**
 * What the sandbox proxy (electron/host/apps/sandbox-proxy.ts) sends just
 * before it relays an app's ui/request-display-mode: whether the person has
 * just pressed or typed inside the app's frame (a fresh user activation with
 * the focus in that frame). The proxy drops reserved messages coming from the
 * app, so the app cannot send this itself.
 */
const UserActivationNotice = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.literal('ui/notifications/sandbox-user-activation'),
  params: z.object({ active: z.boolean() }),
});

async function unwrap<T>(pending: Promise<Result<T>>): Promise<T> {
  const result = await pending;
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/**
 * The host side of one app view, on the official ext-apps AppBridge and its
 * PostMessageTransport (bound to this frame's window only). The bridge
 * speaks the protocol; every request the app makes goes on to the host core,
 * which applies the view's server, the tool's visibility and consent. The
 * renderer only relays. Notifications for the app wait until it has
 * initialized, as the spec requires.
 */
export class AppSession {
  private readonly bridge: AppBridge;
  private readonly transport: PostMessageTransport;
  private readonly unguard: () => void;
  private initialized = false;
  private malformed = 0;
  private closed = false;
  /** The proxy's word on the request being relayed now: a user gesture just happened in the frame. */
  private gesture = false;
  private readonly unlistenActivation: () => void;
  private readonly queue: (() => Promise<void>)[] = [];

  constructor(
    private readonly host: HostApi,
    private readonly view: AppView,
    frame: HTMLIFrameElement,
    granted: readonly AppPermission[],
    private context: McpUiHostContext,
    private readonly events: AppSessionEvents,
    canMessage: boolean,
  ) {
    const target = () => frame.contentWindow;
    const permissions: McpUiResourcePermissions = Object.fromEntries(granted.map((p) => [p, {}]));
    this.bridge = new AppBridge(
      null,
      { name: 'MCP Host', version: '1' },
      {
        openLinks: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        updateModelContext: { text: {}, image: {}, structuredContent: {} },
        ...(canMessage ? { message: { text: {} } } : {}),
        sandbox: { csp: view.csp, permissions },
      },
      { hostContext: context },
    );
    this.unguard = guardMessages(target, (count) => {
      this.log('warning', `Dropped ${String(count)} messages: the app sends too many`);
    });
    // Registered before the transport's listener (which starts in start()), so it hears the notice first.
    const onActivation = (event: MessageEvent) => {
      if (event.source === null || event.source !== frame.contentWindow) return;
      const notice = UserActivationNotice.safeParse(event.data);
      if (!notice.success) return;
      event.stopImmediatePropagation();
      this.gesture = notice.data.params.active;
    };
    window.addEventListener('message', onActivation);
    this.unlistenActivation = () => {
      window.removeEventListener('message', onActivation);
    };
    const source = frame.contentWindow;
    if (source === null) throw new Error('The app frame has no window');
    this.transport = new PostMessageTransport(source, source);
    this.transport.onerror = (error) => {
      this.malformed++;
      if (this.malformed <= MAX_MALFORMED_LOGGED) {
        const more = this.malformed === MAX_MALFORMED_LOGGED ? ' (further ones are not logged)' : '';
        this.log('warning', `Ignored a malformed message: ${error.message.slice(0, 300)}${more}`);
      }
    };
    this.wire(permissions);
  }

  /** Starts listening; call before the proxy page loads, so its ready notice is heard. */
  async start(): Promise<void> {
    await this.bridge.connect(this.transport);
  }

  sendToolInput(args: Record<string, unknown>): void {
    this.whenReady(() => this.bridge.sendToolInput({ arguments: args }));
  }

  sendToolResult(result: AppToolResult): void {
    // Our blocks are the spec's blocks (shared/model/app-tool-result.ts); only their static type is looser.
    this.whenReady(() => this.bridge.sendToolResult(result as McpCallToolResult));
  }

  sendToolCancelled(reason: string): void {
    this.whenReady(() => this.bridge.sendToolCancelled({ reason }));
  }

  /** A change of theme, size or display mode; sent at once to a live app, else kept for ui/initialize. */
  setContext(change: McpUiHostContext): void {
    this.context = { ...this.context, ...change };
    if (this.initialized && !this.closed) void this.bridge.sendHostContextChange(change);
    else this.bridge.setHostContext(this.context);
  }

  /** ui/resource-teardown (waiting briefly for the app), then the host forgets the view. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.initialized) {
      await this.bridge.teardownResource({}, { timeout: TEARDOWN_TIMEOUT_MS }).catch(() => undefined);
    }
    this.unguard();
    this.unlistenActivation();
    await this.bridge.close().catch(() => undefined);
    void this.host.closeAppView({ viewId: this.view.viewId });
  }

  /** A line in the app's server log (renderer-side observations: floods, malformed messages, timeouts). */
  log(level: 'info' | 'warning', text: string): void {
    void this.host.appLog({ viewId: this.view.viewId, level, data: text, source: 'host' });
  }

  private whenReady(send: () => Promise<void>): void {
    if (this.closed) return;
    if (this.initialized) void send().catch(() => undefined);
    else this.queue.push(send);
  }

  private wire(permissions: McpUiResourcePermissions): void {
    const { bridge, host, view, events } = this;
    const viewId = view.viewId;
    bridge.addEventListener('sandboxready', () => {
      void bridge.sendSandboxResourceReady({ html: view.html, csp: view.csp, permissions });
    });
    bridge.addEventListener('initialized', () => {
      this.initialized = true;
      events.onInitialized();
      for (const send of this.queue.splice(0)) void send().catch(() => undefined);
    });
    bridge.oncalltool = async (params) => {
      const result = await unwrap(
        host.appCallTool({ viewId, name: params.name, arguments: params.arguments }),
      );
      return result as McpCallToolResult;
    };
    bridge.onreadresource = async (params) => {
      const result = await unwrap(host.appReadResource({ viewId, uri: params.uri }));
      return result as McpReadResourceResult;
    };
    bridge.onopenlink = async ({ url }) => {
      await unwrap(host.appOpenLink({ viewId, url }));
      return {};
    };
    bridge.onmessage = ({ content }) => {
      const text = content
        .map((block) => (block.type === 'text' ? block.text : ''))
        .filter((t) => t !== '')
        .join('\n\n');
      if (text === '') return Promise.resolve({ isError: true });
      return Promise.resolve(events.onMessage(text) ? {} : { isError: true });
    };
    bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
      await unwrap(
        host.appUpdateModelContext({
          viewId,
          ...(content !== undefined ? { content } : {}),
          ...(structuredContent !== undefined ? { structuredContent } : {}),
        }),
      );
      return {};
    };
    bridge.addEventListener('loggingmessage', ({ level, logger, data }) => {
      void host.appLog({ viewId, level, ...(logger !== undefined ? { logger } : {}), data });
    });
    bridge.addEventListener('sizechange', (size) => {
      events.onSize(size);
    });
    bridge.onrequestdisplaymode = ({ mode }) => {
      // One notice counts for the one request that follows it.
      const gesture = this.gesture;
      this.gesture = false;
      try {
        return Promise.resolve({ mode: events.onDisplayMode(mode, gesture) });
      } catch (error) {
        const reason = error instanceof Error ? error.message : 'refused';
        this.log('warning', `Refused ui/request-display-mode "${mode}": ${reason}`);
        return Promise.reject(new Error(reason));
      }
    };
    bridge.addEventListener('requestteardown', () => {
      events.onRequestClose();
    });
  }
}
