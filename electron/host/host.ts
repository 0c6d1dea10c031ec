import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ChatService, markInterrupted } from './chat/chat-service.js';
import { ToolConsent } from './chat/tool-consent.js';
import type { Host, HostOptions } from './host-types.js';
import type { StdioServerConfig } from '../../shared/model/config.js';
import type { ToolDefinition } from '../../shared/model/tool-pins.js';
import type { AnyHostEventListener, HostEventSink } from './ipc/handlers.js';
import { ConsentBroker } from './consent/consent-broker.js';
import { attentionNote } from './consent/attention-note.js';
import { ToolPinGate } from './consent/tool-pin-gate.js';
import { networkConsent } from './consent/network-consent.js';
import { AnthropicSamplingModel, claudeSettingsFrom } from './client-features/sampling/sampling-model.js';
import type { ClaudeSettingsSource } from './client-features/sampling/sampling-model.js';
import { SamplingRateLimiter } from './client-features/sampling/sampling-rate-limit.js';
import { hostClientFeatures } from './client-features/feature-list.js';
import { ConfigStore } from './servers/config/config-store.js';
import { hostEnvironment } from './servers/stdio/login-env.js';
import { ServerManager } from './servers/server-manager.js';
import { TaskRegistry } from './servers/tasks/task-registry.js';
import { TaskService } from './servers/tasks/task-service.js';
import { TaskDelivery } from './chat/task-delivery.js';
import { toToolCallResult } from './servers/tool-result.js';
import { taskHandlers } from './handlers/tasks.js';
import { FileEraVerdicts } from './servers/stdio/era-verdicts.js';
import { FileOAuthStore } from './servers/http/auth/oauth-store.js';
import { ServerLogs } from './servers/lifecycle/server-log.js';
import { ConfigEditor } from './servers/config/config-editor.js';
import { AppModelContext } from './apps/app-model-context.js';
import { AppRequests } from './apps/app-requests.js';
import { AppViews } from './apps/app-views.js';
import { respondToSandbox } from './apps/sandbox-responder.js';
import { BundleInstaller } from './install/bundle/bundle-installer.js';
import { FileServerSecrets, SERVER_SECRETS_FILE_NAME } from './secrets/server-secrets.js';
import { InstallService } from './install/install-service.js';
import { RegistryClient } from './install/registry/registry-client.js';
import { Persistence } from './persistence/persistence.js';
import { HostError } from './errors.js';
import { joinHandlers } from './handlers/index.js';
import { appInfoHandlers } from './handlers/app.js';
import { appHandlers } from './handlers/apps.js';
import { bundleHandlers } from './handlers/bundles.js';
import { configHandlers } from './handlers/config.js';
import { consentHandlers } from './handlers/consent.js';
import { conversationHandlers } from './handlers/conversations.js';
import { featureHandlers } from './handlers/features.js';
import { registryHandlers } from './handlers/registry.js';
import { serverHandlers } from './handlers/servers.js';
import { settingsHandlers } from './handlers/settings.js';
import { hostSandbox } from './servers/stdio/sandbox/host-sandbox.js';

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
  const configPath = resolveConfigPath(options);
  const store = new ConfigStore(configPath);
  const logs = new ServerLogs(emit);
  const persistence = new Persistence({
    platform: options.platform,
    sqliteNativeBinding: options.sqliteNativeBinding,
    // A turn a previous host started and never finished gets its "interrupted" notice.
    onOpened: (stores) => {
      markInterrupted(stores.conversations);
    },
  });
  const pinGate = new ToolPinGate({
    open: () => persistence.open(),
    identityOf: (name) => (servers.has(name) ? servers.get(name).identity.hash : undefined),
    onWarning: (server, line) => {
      logs.append(server, { source: 'host', level: 'warning', text: line });
    },
  });
  let toolConsent: Promise<ToolConsent> | undefined;
  /** The consent gate of tool calls (chat and MCP Apps), over the persisted rules and audit trail. */
  const openToolConsent = (): Promise<ToolConsent> => {
    toolConsent ??= Promise.all([persistence.open(), pinGate.pins()]).then(
      ([{ rules, audit }, pins]) =>
        new ToolConsent({
          pins,
          definitionsOf: (name) => servers.get(name).catalog?.toolDefinitions ?? [],
          broker: consent,
          rules,
          audit,
          identityOf: (name) => servers.get(name).identity,
          onRulesChanged: () => {
            emit('policiesChanged', rules.list());
          },
        }),
    );
    // A failed open is tried again by the next caller.
    toolConsent.catch(() => {
      toolConsent = undefined;
    });
    return toolConsent;
  };
  const oauthStore = new FileOAuthStore(
    join(options.platform.userDataDir(), OAUTH_FILE_NAME),
    options.platform,
  );
  const serverSecrets = new FileServerSecrets(
    join(options.platform.userDataDir(), SERVER_SECRETS_FILE_NAME),
    options.platform,
    resolve(configPath),
  );
  const environment = options.environment ?? hostEnvironment;
  // Tool calls servers run as tasks: kept in the database so a restarted host follows them again.
  let disposed = false;
  const taskRegistry = new TaskRegistry({
    onChange: (tasks) => {
      emit('tasksChanged', tasks);
    },
    // Nothing is written once the host stops: a task it was following stays as it was, to resume.
    records: async () => {
      if (disposed) throw new HostError('not_connected', 'The host is stopping');
      return (await persistence.open()).tasks;
    },
    onWarning: (server, line) => {
      logs.append(server, { source: 'host', level: 'warning', text: line });
    },
  });
  const servers = new ServerManager(store, {
    tasks: taskRegistry,
    onConnected: (name) => {
      void tasks.resume(name);
    },
    appVersion: options.appVersion,
    secrets: (name, config) => serverSecrets.valuesFor(name, config),
    secretTables: serverSecrets,
    ...options.tuning,
    environment,
    eraVerdicts: new FileEraVerdicts(join(options.platform.userDataDir(), ERA_VERDICTS_FILE_NAME)),
    sandbox: hostSandbox(
      options.platform.userDataDir(),
      process.env,
      // Hosts a sandboxed server was not allowed: the person is asked (the one-shot CLI asks no one).
      networkConsent({
        broker: options.interactive !== false ? consent : undefined,
        audit: async () => (options.interactive !== false ? (await persistence.open()).audit : undefined),
        identityOf: (name): string | undefined =>
          servers.has(name) ? servers.get(name).identity.hash : undefined,
        allowAlways: (name, host): Promise<void> => editor.allowHost(name, host),
        onWarning: (server, line) => {
          logs.append(server, { source: 'host', level: 'warning', text: line });
        },
      }),
    ),
    oauth: {
      store: oauthStore,
      openBrowser: (url: string) => options.platform.openExternal(url),
      clientMetadataUrl: clientMetadataUrl(),
      signInTimeoutMs: options.tuning?.signInTimeoutMs,
    },
    emit,
    logs,
    // A person present: sampling and elicitation besides roots and MCP Apps.
    clientFeatures: hostClientFeatures(
      options.interactive !== false
        ? {
            sampling: {
              consent,
              // Sampling uses the key and base URL of the chat's settings (then the environment).
              model:
                options.samplingModel ??
                new AnthropicSamplingModel(
                  claudeSettingsFrom((): Promise<ClaudeSettingsSource> => persistence.settings()),
                ),
              limiter: new SamplingRateLimiter(options.samplingPerMinute ?? 10),
            },
            elicitation: { consent, openExternal: (url: string) => options.platform.openExternal(url) },
            tasks: taskRegistry,
          }
        : { tasks: taskRegistry },
    ),
    onResourceUpdated: (server, uri) => {
      emit('resourceUpdated', { server, uri, at: Date.now() });
    },
    // The one-shot CLI keeps no pins (it never opens the database).
    ...(options.interactive !== false
      ? {
          onToolDefinitions: (server: string, definitions: readonly ToolDefinition[]) => {
            pinGate.arrived(server, definitions);
          },
        }
      : {}),
    // Called at spawn time only, after `bundles` below exists.
    launchSecrets: (name: string, config: StdioServerConfig): Promise<Record<string, string>> =>
      bundles.secretsFor(name, config),
  });
  // The end of a task a chat turn did not wait for goes back to its conversation (a new turn).
  const taskDelivery: TaskDelivery = new TaskDelivery({
    registry: taskRegistry,
    deliver: (conversationId, block, full, committed): Promise<void> =>
      chat.continueWithTaskResult(conversationId, block, full, committed),
    onWarning: (server, line) => {
      logs.append(server, { source: 'host', level: 'warning', text: line });
    },
  });
  const tasks = new TaskService({
    registry: taskRegistry,
    clientOf: (name) => servers.get(name).connectedClient,
    limits: options.tuning?.taskLimits,
    onResumedResult: (task, result) => {
      taskDelivery.ended(task, {
        kind: 'result',
        result: toToolCallResult(result, Date.now() - task.startedAt),
      });
    },
    onResumedFailure: (task, line) => {
      taskDelivery.ended(task, { kind: 'error', line });
    },
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
  const chat: ChatService = new ChatService({
    persistence,
    toolConsent: openToolConsent,
    servers,
    emit,
    maxRetries: options.chatMaxRetries,
    appContext,
    tasks: taskDelivery,
  });
  const appViews = new AppViews(servers, logs);
  const appRequests = new AppRequests({
    views: appViews,
    servers,
    broker: consent,
    toolConsent: openToolConsent,
    openExternal: (url) => options.platform.openExternal(url),
    modelContext: appContext,
  });

  const installs = new InstallService({
    registry: options.registry ?? new RegistryClient(),
    registryUrl: async () => (await persistence.settings()).registryUrl(),
    environment,
    serverNames: () => servers.list().map((s) => s.name),
    save: (input) => editor.save(undefined, input),
    secrets: serverSecrets,
    emit,
  });

  const handlers = joinHandlers({
    app: appInfoHandlers(options),
    servers: serverHandlers({
      servers,
      logs,
      bundles,
      // The one-shot CLI keeps no audit trail (it never opens the database).
      persistence: options.interactive !== false ? persistence : undefined,
    }),
    config: configHandlers({
      servers,
      editor,
      bundles,
      oauthStore,
      environment,
      startAll: () => {
        startInBackground(servers);
      },
    }),
    bundles: bundleHandlers(bundles),
    registry: registryHandlers(installs),
    settings: settingsHandlers(persistence, chat, emit),
    conversations: conversationHandlers(persistence, chat, emit),
    consent: consentHandlers(consent, persistence, servers, emit, pinGate),
    features: featureHandlers(servers, options.platform),
    apps: appHandlers(appViews, appRequests),
    tasks: taskHandlers(tasks),
  });

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
      disposed = true;
      taskDelivery.dispose();
      await chat.dispose();
      await persistence.close();
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
