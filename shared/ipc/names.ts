/**
 * The names of the contract's requests and events, without their schemas, so
 * the renderer's first screen can build its bridge without loading zod (the
 * contract's schemas load on demand: renderer/src/bridge/inbound-checks.ts).
 * Not a second source of truth: contract.ts fails to compile when these lists
 * and its tables disagree, naming the request.
 */
export const REQUEST_NAMES = [
  'getAppInfo',
  'getConfigState',
  'reloadConfig',
  'listServers',
  'removeServer',
  'startServer',
  'stopServer',
  'restartServer',
  'signInServer',
  'cancelSignIn',
  'signOutServer',
  'callTool',
  'getServerLogs',
  'setLogLevel',
  'getServerInput',
  'saveServer',
  'setServerEnabled',
  'setServerSandboxed',
  'setToolEnabled',
  'setSkillsEnabled',
  'getRawConfig',
  'saveRawConfig',
  'listImportLocations',
  'previewImport',
  'importServers',
  'uploadBundleChunk',
  'previewBundle',
  'pickBundlePath',
  'installBundle',
  'discardBundle',
  'uninstallBundle',
  'cancelToolCall',
  'getSettings',
  'updateSettings',
  'setApiKey',
  'clearApiKey',
  'listModels',
  'listConversations',
  'createConversation',
  'renameConversation',
  'deleteConversation',
  'getConversation',
  'sendMessage',
  'stopTurn',
  'retryTurn',
  'listPolicies',
  'revokePolicy',
  'listAudit',
  'setServerTrust',
  'listToolChanges',
  'acceptToolChange',
  'getToolResult',
  'editMessage',
  'regenerateAnswer',
  'switchBranch',
  'setConversationSettings',
  'exportConversation',
  'setToolPinned',
  'listResources',
  'listPrompts',
  'readResource',
  'subscribeResource',
  'unsubscribeResource',
  'complete',
  'getPrompt',
  'listSkills',
  'listRoots',
  'addRoot',
  'pickRoot',
  'removeRoot',
  'listConsents',
  'answerConsent',
  'openAppView',
  'closeAppView',
  'grantAppPermissions',
  'appCallTool',
  'appReadResource',
  'appOpenLink',
  'appLog',
  'appUpdateModelContext',
  'listTasks',
  'cancelTask',
  'searchRegistry',
  'prepareRegistryInstall',
  'listPendingInstalls',
  'previewInstall',
  'installServer',
  'dismissInstall',
] as const;

export const EVENT_NAMES = [
  'serverChanged',
  'serverRemoved',
  'configChanged',
  'toolCallProgress',
  'settingsChanged',
  'conversationChanged',
  'conversationDeleted',
  'chatDelta',
  'chatMessage',
  'toolCallUpdate',
  'turnState',
  'usage',
  'resourceUpdated',
  'consentRequested',
  'consentResolved',
  'policiesChanged',
  'serverLog',
  'installRequested',
  'installResolved',
  'tasksChanged',
] as const;

export type RequestName = (typeof REQUEST_NAMES)[number];
export type EventName = (typeof EVENT_NAMES)[number];

const has = (list: readonly string[], name: unknown): boolean =>
  typeof name === 'string' && list.includes(name);

/** Whether a name (from a wire or a caller) is a request of the contract. */
export const isRequestName = (name: unknown): name is RequestName => has(REQUEST_NAMES, name);
/** Whether a name is an event of the contract. */
export const isEventName = (name: unknown): name is EventName => has(EVENT_NAMES, name);

/** The Electron IPC channel that carries a request or event. */
export const requestChannel = (name: RequestName): string => `host:req:${name}`;
export const eventChannel = (name: EventName): string => `host:evt:${name}`;
