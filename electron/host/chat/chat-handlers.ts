import type { HostHandlers } from '../ipc/handlers.js';
import { HostError } from '../errors.js';

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
  | 'getToolResult';

export type ChatHandlers = Pick<HostHandlers, ChatRequestName>;

const notYet = (): Promise<never> => Promise.reject(new HostError('internal', 'Chat is being built'));

/** Placeholder until the chat service lands (the contract is committed first for the UI). */
export function createChatHandlers(): ChatHandlers {
  return {
    getSettings: notYet,
    updateSettings: notYet,
    setApiKey: notYet,
    clearApiKey: notYet,
    listModels: notYet,
    listConversations: notYet,
    createConversation: notYet,
    renameConversation: notYet,
    deleteConversation: notYet,
    getConversation: notYet,
    sendMessage: notYet,
    stopTurn: notYet,
    retryTurn: notYet,
    listPolicies: notYet,
    revokePolicy: notYet,
    listAudit: notYet,
    getToolResult: notYet,
  };
}
