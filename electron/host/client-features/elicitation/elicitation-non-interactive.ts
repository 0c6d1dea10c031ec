import type { ConsentBroker } from '../../consent/consent-broker.js';
import type { ElicitationServices } from './elicitation-handler.js';

/**
 * Elicitation for a client with no person to ask (the conformance client):
 * every form is accepted with nothing filled in, so what the server gets is
 * exactly the schema defaults the host core applies (SEP-1034); URLs are
 * declined and never opened.
 */
const answerWithoutAPerson = ((kind: string) =>
  Promise.resolve(
    kind === 'elicitationForm' ? { action: 'accept', content: {} } : { action: 'decline' },
  )) as ConsentBroker['ask'];

export const nonInteractiveElicitation: ElicitationServices = {
  consent: { ask: answerWithoutAPerson },
  openExternal: () => Promise.reject(new Error('This client opens no URLs')),
};
