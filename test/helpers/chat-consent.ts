import { expect } from 'vitest';
import type { z } from 'zod';
import type { ToolResultChatBlock } from '../../shared/model/chat.js';
import type { ToolConsentDecision, ToolConsentPromptSchema } from '../../shared/model/consent.js';
import { turnEnd } from './chat.js';
import { value } from './host.js';
import type { TestHost } from './host.js';

export type ToolPrompt = z.output<typeof ToolConsentPromptSchema>;

/**
 * Sends "call <tool> <json>" (the fake API's rule) and plays the turn out:
 * each consent request it raises is answered with the next of `answers`.
 * Returns the consent prompts raised, the stored result block of the call
 * and the turn's id; the turn must end done.
 */
export async function callThroughChat(
  host: TestHost,
  conversationId: string,
  text: string,
  answers: ToolConsentDecision[] = [],
): Promise<{ asked: ToolPrompt[]; result: ToolResultChatBlock | undefined; turnId: string }> {
  const from = host.events.length;
  const pending = [...answers];
  const off = host.host.onEvent((event, payload) => {
    if (event !== 'consentRequested') return;
    const decision = pending.shift();
    if (decision === undefined) return;
    const { id } = payload as { id: string };
    setImmediate(() => {
      void host.api.answerConsent({ id, answer: { decision } });
    });
  });
  try {
    const { turnId } = value(await host.api.sendMessage({ conversationId, text }));
    const end = await turnEnd(host, turnId, from);
    expect(end.state).toBe('done');
    const asked = host.events
      .slice(from)
      .filter((e) => e.event === 'consentRequested')
      .map((e) => (e.payload as { prompt: ToolPrompt }).prompt);
    const messages = value(await host.api.getConversation({ id: conversationId })).messages;
    const result = messages
      .filter((m) => m.turnId === turnId)
      .flatMap((m) => m.blocks)
      .find((b): b is ToolResultChatBlock => b.type === 'tool_result');
    return { asked, result, turnId };
  } finally {
    off();
  }
}
