import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ChatService } from './chat/chat-service.js';
import { featureHandlers } from './features/handlers.js';
import type { Host, HostOptions } from './host-types.js';
import type { LaunchRequest } from './platform.js';
import type { StdioServerConfig } from '../../shared/model/config.js';
import type { AnyHostEventListener, HostEventSink, HostHandlers } from './ipc/handlers.js';
import { ConsentBroker } from './consent/consent-broker.js';
import { attentionNote } from './consent/attention-note.js';
import { AnthropicSamplingModel, claudeSettingsFrom } from './client-features/sampling-model.js';
import type { ClaudeSettingsSource } from './client-features/sampling-model.js';
import { SamplingRateLimiter } from './client-features/sampling-rate-limit.js';
import { ConfigStore } from './servers/config/config-store.js';
import { hostEnvironment } from './servers/launch/login-env.js';
import { ServerManager } from './servers/server-manager.js';
import { FileEraVerdicts } from './servers/launch/era-verdicts.js';
import { FileOAuthStore } from './auth/oauth-store.js';
import { applyOAuthSecretInput, withStoredSecretFlag } from './auth/oauth-secrets.js';
import { ServerLogs } from './servers/lifecycle/server-log.js';
import { ConfigEditor } from './servers/config/config-editor.js';
import { AppModelContext } from './apps/app-model-context.js';
import { AppRequests } from './apps/app-requests.js';
import { AppViews } from './apps/app-views.js';
import { appHandlers } from './apps/app-handlers.js';
import { respondToSandbox } from './apps/sandbox-responder.js';
import { BundleInstaller } from './install/bundle/bundle-installer.js';
import { bundleHandlers } from './install/bundle/bundle-handlers.js';
import { FileServerSecrets, SERVER_SECRETS_FILE_NAME } from './secrets/server-secrets.js';
import { InstallService } from './install/install-service.js';
import { RegistryClient } from './install/registry/registry-client.js';

/** Environment variable that points the app at another configuration file. */
export const CONFIG_ENV = 'MCP_HOST_CONFIG';
export const CONFIG_FILE_NAME = 'mcp-servers.json';
/** Remembered protocol eras of stdio servers (era-verdicts.ts), in the data folder. */
export const ERA_VERDICTS_FILE_NAME = 'protocol-eras.json';
/** OAuth tokens and client registrations, each record encrypted through the Platform. */
export const OAUTH_FILE_NAME = 'oauth-credentials.json';
/**
 * Where the app's OAuth Client ID Metadata Document is published
 * (docs/oauth/client-metadata.json in the repository). A fork or a company
 * that publishes its own sets MCP_HOST_CLIENT_METADATA_URL (or
 * `oauth.clientMetadataUrl` per server).
 */
export const DEFAULT_CLIENT_METADATA_URL = 'https://mcp-host.github.io/mcp-host/oauth/client-metadata.json';
export const CLIENT_METADATA_URL_ENV = 'MCP_HOST_CLIENT_METADATA_URL';

function clientMetadataUrl(): string {
  const configured = process.env[CLIENT_METADATA_URL_ENV];
  if (configured !== undefined && /^https:\/\/[^/]+\/.+/.test(configured)) return configured;
  return DEFAULT_CLIENT_METADATA_URL;
}

/** Resolves which configuration file to use: explicit path, then env, then the user-data folder. */
export function resolveConfigPath(options: Pick<HostOptions, 'configPath' | 'platform'>): string {
  const explicit = options.configPath ?? process.env[CONFIG_ENV];
  if (explicit !== undefined && explicit !== '') return explicit;
  return join(options.platform.userDataDir(), CONFIG_FILE_NAME);
}

/**
 * Builds the host core: the configuration, the server manager and one
 * handler per request of the IPC contract. Knows nothing of Electron or
 * WebSockets; the shells bind `handlers` and `onEvent` to their pipe.
 */
export function createHost(options: HostOptions): Host {
  const listeners = new Set<AnyHostEventListener>();
  const emit: HostEventSink = (event, payload) => {
    for (const listener of listeners) listener(event, payload);
  };
  const consent = new ConsentBroker({
    onRequested: (request) => {
      emit('consentRequested', request);
      options.platform.requestAttention(attentionNote(request));
    },
    onResolved: (id, outcome) => {
      emit('consentResolved', { id, outcome });
    },
  });
  const store = new ConfigStore(resolveConfigPath(options));
  const logs = new ServerLogs(emit);
  const confirmLaunch = (request: LaunchRequest) => options.platform.confirmLaunch(request);
  const oauthStore = new FileOAuthStore(
    join(options.platform.userDataDir(), OAUTH_FILE_NAME),
    options.platform,
  );
  const serverSecrets = new FileServerSecrets(
    join(options.platform.userDataDir(), SERVER_SECRETS_FILE_NAME),
    options.platform,
  );
  const environment = options.environment ?? hostEnvironment;
  const servers = new ServerManager(store, {
    appVersion: options.appVersion,
    secrets: (name) => serverSecrets.get(name),
    ...options.tuning,
    environment,
    eraVerdicts: new FileEraVerdicts(join(options.platform.userDataDir(), ERA_VERDICTS_FILE_NAME)),
    oauth: {
      store: oauthStore,
      openBrowser: (url: string) => options.platform.openExternal(url),
      clientMetadataUrl: clientMetadataUrl(),
      signInTimeoutMs: options.tuning?.signInTimeoutMs,
    },
    emit,
    confirmLaunch,
    logs,
    ...(options.interactive !== false
      ? {
          sampling: {
            consent,
            // Sampling uses the key and base URL of the chat's settings (then the environment).
            model:
              options.samplingModel ??
              new AnthropicSamplingModel(
                claudeSettingsFrom((): Promise<ClaudeSettingsSource> => chat.claudeSettings()),
              ),
            limiter: new SamplingRateLimiter(options.samplingPerMinute ?? 10),
          },
          elicitation: { consent, openExternal: (url: string) => options.platform.openExternal(url) },
        }
      : {}),
    onResourceUpdated: (server, uri) => {
      emit('resourceUpdated', { server, uri, at: Date.now() });
    },
    // Called at spawn time only, after `bundles` below exists.
    launchSecrets: (name: string, config: StdioServerConfig): Promise<Record<string, string>> =>
      bundles.secretsFor(name, config),
  });
  const editor = new ConfigEditor(store, servers, {
    confirmLaunches: (requests) => options.platform.confirmLaunches(requests),
    locations: { platform: process.platform, home: homedir(), env: process.env },
  });
  const bundles: BundleInstaller = new BundleInstaller({
    dataDir: options.platform.userDataDir(),
    platform: options.platform,
    editor,
    servers,
    store,
    environment,
  });

  const appContext = new AppModelContext();
  const chat = new ChatService({
    platform: options.platform,
    servers,
    broker: consent,
    emit,
    sqliteNativeBinding: options.sqliteNativeBinding,
    maxRetries: options.chatMaxRetries,
    appContext,
  });
  const appViews = new AppViews(servers, logs);
  const appRequests = new AppRequests({
    views: appViews,
    servers,
    broker: consent,
    toolConsent: () => chat.toolConsent(),
    openExternal: (url) => options.platform.openExternal(url),
    modelContext: appContext,
  });

  const installs = new InstallService({
    registry: options.registry ?? new RegistryClient(),
    registryUrl: async () => (await chat.claudeSettings()).registryUrl(),
    environment,
    serverNames: () => servers.list().map((s) => s.name),
    save: (input) => editor.save(undefined, input),
    secrets: serverSecrets,
    emit,
  });

  const instance = { instanceId: randomUUID(), startedAt: Date.now() };
  const handlers: HostHandlers = {
    getAppInfo: () =>
      Promise.resolve({
        name: 'MCP Host',
        version: options.appVersion,
        shell: options.shell,
        platform: process.platform,
        ...instance,
      }),
    getConfigState: () => Promise.resolve(servers.configState()),
    reloadConfig: async () => {
      const state = await servers.load();
      await bundles.forgetOrphans();
      startInBackground(servers);
      return state;
    },
    listServers: () => Promise.resolve(servers.list()),
    addServer: (input) => servers.add(input),
    removeServer: async ({ name }) => {
      // A bundle's server takes its files and secrets along.
      if (await bundles.isBundle(name)) await bundles.uninstall(name);
      else await servers.remove(name);
      await serverSecrets.delete(name).catch(() => undefined);
      return null;
    },
    startServer: ({ name }) => servers.start(name),
    stopServer: ({ name }) => servers.stop(name),
    restartServer: ({ name }) => servers.restart(name),
    signInServer: ({ name }) => servers.signIn(name),
    cancelSignIn: ({ name }) => servers.cancelSignIn(name),
    signOutServer: ({ name }) => servers.signOut(name),
    callTool: async ({ server, tool, argumentsJson, callId }) => {
      // A call the person makes themselves needs no consent, but it is part of the audit trail.
      // The one-shot CLI has no trail to keep (it never opens the database).
      if (options.interactive !== false) await chat.auditUserCall({ server, tool, argumentsJson });
      return servers.callTool(server, tool, argumentsJson, { callId });
    },
    cancelToolCall: ({ callId }) => Promise.resolve(servers.cancelToolCall(callId)),

    // Logs and configuration (issue 3, part C).
    getServerLogs: ({ name }) => {
      servers.get(name);
      return Promise.resolve(logs.snapshot(name));
    },
    setLogLevel: async ({ name, level }) => {
      await servers.get(name).setLogLevel(level);
      logs.of(name).level = level;
      return null;
    },
    getServerInput: ({ name }) => withStoredSecretFlag(oauthStore, environment, editor.inputOf(name)),
    saveServer: async ({ originalName, input }) => {
      // A name clash is refused before anything is touched (another server's credentials stay its own).
      if (input.name !== originalName && servers.has(input.name)) return editor.save(originalName, input);
      // The typed OAuth client secret goes to the encrypted store, never to the file.
      const undo = await applyOAuthSecretInput(oauthStore, environment, originalName, input);
      // A renamed server takes its stored secrets along (its entry refers to them by name).
      const renamed = originalName !== undefined && originalName !== input.name;
      if (renamed) await serverSecrets.rename(originalName, input.name);
      try {
        return await editor.save(originalName, input);
      } catch (error) {
        await undo().catch(() => undefined);
        if (renamed) await serverSecrets.rename(input.name, originalName).catch(() => undefined);
        throw error;
      }
    },
    setServerEnabled: ({ name, enabled }) => editor.setServerEnabled(name, enabled),
    setToolEnabled: ({ name, tool, enabled }) => editor.setToolEnabled(name, tool, enabled),
    getRawConfig: () => editor.rawText(),
    saveRawConfig: async ({ text }) => {
      const state = await editor.saveRawText(text);
      await bundles.forgetOrphans();
      return state;
    },
    listImportLocations: () => editor.locations(),
    previewImport: ({ source, text }) => editor.preview(source, text),
    importServers: (request) => editor.import(request),
    ...bundleHandlers(bundles),
    ...chat.handlers(),
    ...featureHandlers(servers, options.platform),
    ...appHandlers(appViews, appRequests),
    searchRegistry: ({ query, cursor }) => installs.search(query, cursor),
    prepareRegistryInstall: ({ name, version }) => installs.prepareRegistry(name, version),
    listPendingInstalls: () => Promise.resolve(installs.list()),
    previewInstall: (request) => installs.preview(request),
    installServer: (request) => installs.install(request),
    dismissInstall: ({ id }) => {
      installs.dismiss(id);
      return Promise.resolve(null);
    },
    listConsents: () => Promise.resolve(consent.pending()),
    answerConsent: ({ id, answer }) => {
      consent.answer(id, answer);
      return Promise.resolve(null);
    },
  };

  return {
    handlers,
    consent,
    bundles,
    installs: { receiveLink: (link) => installs.receiveLink(link) },
    apps: {
      bindSandbox: (location) => {
        appViews.bindSandbox(location);
      },
      respond: (request) => respondToSandbox(appViews, request),
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    loadConfig: () => servers.load(),
    async start() {
      // Ask the login shell now, in the background: the first spawn awaits it, nothing else does.
      void environment();
      await bundles.cleanup();
      await servers.load();
      await bundles.forgetOrphans();
      startInBackground(servers);
    },
    async dispose() {
      await chat.dispose();
      appViews.clear();
      consent.withdrawAll();
      await servers.stopAll();
      logs.dispose();
      listeners.clear();
    },
  };
}

/** Servers connect in the background: the UI is usable while they do, and each reports its own state. */
function startInBackground(servers: ServerManager): void {
  // Fire-and-forget on purpose: startAll never rejects (each failure becomes a "failed" snapshot).
  void servers.startAll();
}
