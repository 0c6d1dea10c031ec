import type { HostHandlers } from '../ipc/handlers.js';

/** The requests of the contract that the chat part of the host answers. */
export type ChatRequestName =
  | 'getSettings'
  | 'updateSettings'
  | 'setApiKey'
  | 'clearApiKey'
  | 'listModels'
  | 'listConversations'
  | 'createConversation'
  | 'renameConversation'
  | 'deleteConversation'
  | 'getConversation'
  | 'sendMessage'
  | 'stopTurn'
  | 'retryTurn'
  | 'listPolicies'
  | 'revokePolicy'
  | 'listAudit'
  | 'setServerTrust'
  | 'getToolResult'
  | 'editMessage'
  | 'regenerateAnswer'
  | 'switchBranch'
  | 'setConversationSettings'
  | 'exportConversation'
  | 'setToolPinned';

export type ChatHandlers = Pick<HostHandlers, ChatRequestName>;
