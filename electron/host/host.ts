import { join } from 'node:path';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { featureHandlers } from './features/handlers.js';
import type { Host, HostOptions } from './host-types.js';
import type { AnyHostEventListener, HostEventSink, HostHandlers } from './ipc/handlers.js';
import { ConsentBroker } from './consent/consent-broker.js';
import { AnthropicSamplingModel, claudeSettingsFromEnv } from './client-features/sampling-model.js';
import { SamplingRateLimiter } from './client-features/sampling-rate-limit.js';
import { ConfigStore } from './servers/config-store.js';
import { ServerManager } from './servers/server-manager.js';

/** Environment variable that points the app at another configuration file. */
export const CONFIG_ENV = 'MCP_HOST_CONFIG';
export const CONFIG_FILE_NAME = 'mcp-servers.json';

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
    },
    onResolved: (id, outcome) => {
      emit('consentResolved', { id, outcome });
    },
  });
  const store = new ConfigStore(resolveConfigPath(options));
  const servers = new ServerManager(store, {
    appVersion: options.appVersion,
    baseEnv: inheritedEnv(),
    emit,
    confirmLaunch: (request) => options.platform.confirmLaunch(request),
    ...(options.interactive !== false
      ? {
          sampling: {
            consent,
            model: options.samplingModel ?? new AnthropicSamplingModel(claudeSettingsFromEnv),
            limiter: new SamplingRateLimiter(options.samplingPerMinute ?? 10),
          },
          elicitation: { consent, openExternal: (url: string) => options.platform.openExternal(url) },
        }
      : {}),
    onResourceUpdated: (server, uri) => {
      emit('resourceUpdated', { server, uri, at: Date.now() });
    },
  });

  const handlers: HostHandlers = {
    getAppInfo: () =>
      Promise.resolve({
        name: 'MCP Host',
        version: options.appVersion,
        shell: options.shell,
        platform: process.platform,
      }),
    getConfigState: () => Promise.resolve(servers.configState()),
    reloadConfig: async () => {
      const state = await servers.load();
      startInBackground(servers);
      return state;
    },
    listServers: () => Promise.resolve(servers.list()),
    addServer: (input) => servers.add(input),
    removeServer: async ({ name }) => {
      await servers.remove(name);
      return null;
    },
    startServer: ({ name }) => servers.start(name),
    stopServer: ({ name }) => servers.stop(name),
    callTool: ({ server, tool, argumentsJson }) => servers.callTool(server, tool, argumentsJson),
    ...featureHandlers(servers, options.platform),
    listConsents: () => Promise.resolve(consent.pending()),
    answerConsent: ({ id, answer }) => {
      consent.answer(id, answer);
      return Promise.resolve(null);
    },
  };

  return {
    handlers,
    consent,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    loadConfig: () => servers.load(),
    async start() {
      await servers.load();
      startInBackground(servers);
    },
    async dispose() {
      consent.withdrawAll();
      await servers.stopAll();
      listeners.clear();
    },
  };
}

/** Servers connect in the background: the UI is usable while they do, and each reports its own state. */
function startInBackground(servers: ServerManager): void {
  // Fire-and-forget on purpose: startAll never rejects (each failure becomes a "failed" snapshot).
  void servers.startAll();
}

/**
 * What a server inherits from the host: the SDK's short safe list (HOME,
 * PATH, USER, …) plus locale and temp-folder variables. Nothing else, so the
 * host's own secrets (an API key in its environment) never reach a server.
 */
function inheritedEnv(): Record<string, string> {
  const env = getDefaultEnvironment();
  for (const key of EXTRA_INHERITED_ENV) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

const EXTRA_INHERITED_ENV = ['LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'TMP', 'TEMP', 'TZ', 'XDG_RUNTIME_DIR'];
