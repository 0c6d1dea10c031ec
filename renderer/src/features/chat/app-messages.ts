import { loadDraft, saveDraft } from './composer-drafts.js';

type Listener = (text: string) => void;
const listeners = new Map<string, Listener>();

/**
 * Messages MCP Apps want to add to a conversation (ui/message). They go into
 * that conversation's message box, never straight to Claude: the person
 * reads, edits and sends them. When the box is not on screen, the text waits
 * in the conversation's draft.
 */
export function deliverAppMessage(conversationId: string, text: string): void {
  const listener = listeners.get(conversationId);
  if (listener) {
    listener(text);
    return;
  }
  const draft = loadDraft(conversationId);
  saveDraft(conversationId, {
    text: joinDraft(draft?.text ?? '', text),
    promptMessages: draft?.promptMessages ?? [],
  });
}

/** The composer of a conversation listens while it is on screen. */
export function onAppMessage(conversationId: string, listener: Listener): () => void {
  listeners.set(conversationId, listener);
  return () => {
    if (listeners.get(conversationId) === listener) listeners.delete(conversationId);
  };
}

/** An app's text after what the person had typed, a blank line between. */
export function joinDraft(current: string, text: string): string {
  return current.trim() === '' ? text : `${current}\n\n${text}`;
}
