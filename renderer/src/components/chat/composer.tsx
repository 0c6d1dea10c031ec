import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { Attachment } from '../../../../shared/model/chat.js';
import type { PromptResult } from '../../../../shared/model/features.js';
import { promptInsert } from '../../lib/prompt-insert.js';
import { attachmentsStore, useAttachments } from '../../store/attachments.js';
import { useChat, useChatActions } from '../../store/chat-context.js';
import { NEW_CHAT_DRAFT, loadDraft, saveDraft } from '../../store/composer-drafts.js';
import type { PromptMessage } from '../../store/composer-drafts.js';
import { PromptPicker } from '../prompts/prompt-picker.js';
import { ContextChips } from './context-chips.js';
import { useHostReachable } from '../../store/store-context.js';

/**
 * Where the person writes. Enter sends, Shift+Enter adds a line, Esc stops
 * the running turn. While a turn runs, Send becomes Stop. Resources attached
 * from the Resources tab show as chips and go with the message; text that
 * starts with "/" opens the prompt picker, whose result fills the composer.
 * An unsent draft is kept per conversation (mount it keyed by conversation).
 */
export function Composer({
  conversationId,
  running,
}: {
  conversationId: string | undefined;
  running: boolean;
}) {
  const draftKey = conversationId ?? NEW_CHAT_DRAFT;
  const [text, setText] = useState(() => loadDraft(draftKey)?.text ?? '');
  const [sending, setSending] = useState(false);
  const keySet = useChat((s) => s.settings?.apiKey.set);
  const { send, stop } = useChatActions();
  // Typing still works (the draft is kept); sending and stopping need the host.
  const reachable = useHostReachable();
  const ref = useRef<HTMLTextAreaElement>(null);
  const pickerListId = useId();
  const resources = useAttachments((s) => s.attachments);
  const [promptMessages, setPromptMessages] = useState<readonly PromptMessage[]>(
    () => loadDraft(draftKey)?.promptMessages ?? [],
  );
  useEffect(() => {
    saveDraft(draftKey, { text, promptMessages });
  }, [draftKey, text, promptMessages]);
  // Esc closes the picker until the text no longer starts with "/".
  const [pickerDismissed, setPickerDismissed] = useState(false);
  const pickerOpen = text.startsWith('/') && !pickerDismissed && !running;

  useEffect(() => {
    ref.current?.focus();
  }, [conversationId]);

  const focusInput = useCallback(() => {
    ref.current?.focus();
  }, []);
  const closePicker = useCallback(() => {
    setPickerDismissed(true);
    ref.current?.focus();
  }, []);
  const insertPrompt = useCallback((result: PromptResult) => {
    const insert = promptInsert(result);
    setText(insert.text);
    setPromptMessages(insert.messages);
    setPickerDismissed(false);
    ref.current?.focus();
  }, []);

  const hasContext = resources.length > 0 || promptMessages.length > 0;
  const submit = () => {
    const message = text.trim();
    if ((message === '' && !hasContext) || running || sending || !reachable) return;
    const sentResources = resources;
    const attachments: Attachment[] = [
      ...promptMessages,
      ...sentResources.map((a): Attachment => ({ type: 'resource', server: a.server, uri: a.uri })),
    ];
    setSending(true);
    void send(message, attachments).then((result) => {
      setSending(false);
      // Keep the text and chips when the message was not sent, so nothing is lost.
      if (!result.ok) return;
      setText('');
      setPromptMessages([]);
      for (const a of sentResources) attachmentsStore.getState().detach(a.id);
    });
  };

  return (
    <div className="composer-area">
      {pickerOpen && (
        // Outside the composer's <form>: the picker's argument form is a form of its own.
        <div className="composer__picker">
          <PromptPicker
            query={text.slice(1)}
            onInsert={insertPrompt}
            onClose={closePicker}
            listId={pickerListId}
          />
        </div>
      )}
      <form
        className="composer"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <ContextChips
          promptMessages={promptMessages}
          onRemovePrompt={() => {
            setPromptMessages([]);
          }}
          onFocusComposer={focusInput}
        />
        <textarea
          ref={ref}
          className="composer__input"
          aria-label="Message"
          placeholder={
            keySet === false ? 'Add an API key in Settings to chat' : 'Message Claude… (/ for prompts)'
          }
          // A textbox may not say aria-expanded: it says that it suggests from a list, and which one.
          aria-autocomplete="list"
          aria-controls={pickerOpen ? pickerListId : undefined}
          rows={Math.min(8, Math.max(1, text.split('\n').length))}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (!event.target.value.startsWith('/')) setPickerDismissed(false);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              submit();
            } else if (event.key === 'Escape' && running && reachable) {
              event.preventDefault();
              void stop();
            }
          }}
        />
        {running ? (
          <button
            type="button"
            className="btn composer__stop"
            disabled={!reachable}
            onClick={() => {
              void stop();
            }}
          >
            <span className="composer__stop-icon" aria-hidden="true" />
            Stop
          </button>
        ) : (
          <button
            type="submit"
            className="btn btn--primary"
            disabled={(text.trim() === '' && !hasContext) || sending || !reachable}
          >
            Send
          </button>
        )}
        <p className="composer__hint">
          Enter to send · Shift+Enter for a new line · / for prompts · Esc to stop
        </p>
      </form>
    </div>
  );
}
