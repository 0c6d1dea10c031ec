import type { Attachment } from '../../../../shared/model/chat.js';

export type PromptMessage = Extract<Attachment, { type: 'prompt-message' }>;

/** What the person has typed (and inserted from a prompt) but not sent yet. */
export interface Draft {
  readonly text: string;
  readonly promptMessages: readonly PromptMessage[];
}

/** Drafts kept at most; the oldest go first. */
const MAX_DRAFTS = 200;
const drafts = new Map<string, Draft>();

/** The key of the "new chat" composer, which has no conversation yet. */
export const NEW_CHAT_DRAFT = '';

/**
 * Unsent drafts per conversation for the window's lifetime, so switching to
 * another conversation or another section and back loses nothing.
 */
export function loadDraft(conversation: string): Draft | undefined {
  return drafts.get(conversation);
}

export function saveDraft(conversation: string, draft: Draft): void {
  drafts.delete(conversation);
  if (draft.text === '' && draft.promptMessages.length === 0) return;
  drafts.set(conversation, draft);
  if (drafts.size > MAX_DRAFTS) {
    const oldest = drafts.keys().next();
    if (oldest.done !== true) drafts.delete(oldest.value);
  }
}
