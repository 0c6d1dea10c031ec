import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { Attachment } from '../../../../shared/model/chat.js';
import type { PromptResult } from '../../../../shared/model/features.js';
import { promptInsert } from './prompt-insert.js';
import { readFiles } from './read-files.js';
import type { PendingFile } from './read-files.js';
import { attachmentsStore, useAttachments } from './attachments.js';
import { useChat, useChatActions } from './chat-context.js';
import { NEW_CHAT_DRAFT, loadDraft, saveDraft } from './composer-drafts.js';
import { joinDraft, onAppMessage } from './app-messages.js';
import type { PromptMessage } from './composer-drafts.js';
import { PromptPicker } from '../resources-prompts/prompt-picker.js';
import { ContextChips } from './context-chips.js';
import { FileChips } from './file-chips.js';
import { useHostReachable } from '../../store/store-context.js';
import { Deferred } from '../../common/on-demand.js';
import { StopTasksDialog } from '../tasks/lazy.js';

/** What the file picker offers: what Claude takes (the host checks again). */
const ACCEPT =
  'image/png,image/jpeg,image/gif,image/webp,application/pdf,text/*,.md,.csv,.json,.yaml,.yml,.ts,.tsx,.js,.py,.go,.rs,.java,.c,.cpp,.h,.sh,.sql,.toml,.xml,.html,.css,.log';

/**
 * Where the person writes. Enter sends, Shift+Enter adds a line, Esc stops
 * the running turn. While a turn runs, Send becomes Stop. Resources attached
 * from the Resources tab show as chips and go with the message; text that
 * starts with "/" opens the prompt picker, whose result fills the composer.
 * Images, PDFs and text files can be pasted, dropped or picked; each is
 * checked against the limits first (one line when it does not fit). An
 * unsent draft is kept per conversation (mount it keyed by conversation).
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
  const turnId = useChat((s) =>
    conversationId === undefined ? undefined : s.details[conversationId]?.turn?.turnId,
  );
  const messages = useChat((s) =>
    conversationId === undefined ? undefined : s.details[conversationId]?.messages,
  );
  // After Stop: the tool calls of the stopped turn, whose running tasks the person is asked about.
  const [stoppedCalls, setStoppedCalls] = useState<readonly string[]>();
  const closeStopDialog = useCallback(() => {
    setStoppedCalls(undefined);
    ref.current?.focus();
  }, []);
  const stopTurn = () => {
    const calls = (messages ?? [])
      .filter((m) => m.turnId === turnId)
      .flatMap((m) => m.blocks.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])));
    void stop().then(() => {
      if (calls.length > 0) setStoppedCalls(calls);
    });
  };
  // Typing still works (the draft is kept); sending and stopping need the host.
  const reachable = useHostReachable();
  const ref = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<readonly PendingFile[]>([]);
  const [fileProblems, setFileProblems] = useState<readonly string[]>([]);
  const [dragging, setDragging] = useState(false);
  const addFiles = useCallback(
    (incoming: readonly File[]) => {
      if (incoming.length === 0) return;
      void readFiles(incoming, files).then(({ files: read, problems }) => {
        setFiles((current) => [...current, ...read]);
        setFileProblems(problems);
      });
    },
    [files],
  );
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
  // An MCP App's ui/message lands here for the person to review and send.
  useEffect(
    () =>
      onAppMessage(draftKey, (appText) => {
        setText((current) => joinDraft(current, appText));
      }),
    [draftKey],
  );

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

  const hasContext = resources.length > 0 || promptMessages.length > 0 || files.length > 0;
  const submit = () => {
    const message = text.trim();
    if ((message === '' && !hasContext) || running || sending || !reachable) return;
    const sentResources = resources;
    const sentFiles = files;
    const attachments: Attachment[] = [
      ...promptMessages,
      ...sentFiles.map((f) => f.attachment),
      ...sentResources.map((a): Attachment => ({ type: 'resource', server: a.server, uri: a.uri })),
    ];
    setSending(true);
    setFileProblems([]);
    void send(message, attachments).then((result) => {
      setSending(false);
      // Keep the text, files and chips when the message was not sent, so nothing is lost.
      if (!result.ok) return;
      setText('');
      setPromptMessages([]);
      setFiles((current) => current.filter((f) => !sentFiles.includes(f)));
      for (const a of sentResources) attachmentsStore.getState().detach(a.id);
    });
  };

  return (
    <div className="composer-area">
      {stoppedCalls && (
        <Deferred fallback={null}>
          <StopTasksDialog toolCallIds={stoppedCalls} onClose={closeStopDialog} />
        </Deferred>
      )}
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
        className={`composer${dragging ? ' composer--dropping' : ''}`}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        onDragOver={(event) => {
          if (!event.dataTransfer.types.includes('Files')) return;
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={(event) => {
          if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget))
            return;
          setDragging(false);
        }}
        onDrop={(event) => {
          if (event.dataTransfer.files.length === 0) return;
          event.preventDefault();
          setDragging(false);
          addFiles(Array.from(event.dataTransfer.files));
        }}
      >
        <ContextChips
          promptMessages={promptMessages}
          onRemovePrompt={() => {
            setPromptMessages([]);
          }}
          onFocusComposer={focusInput}
        />
        <FileChips
          files={files}
          onRemove={(id) => {
            setFiles((current) => current.filter((f) => f.id !== id));
            focusInput();
          }}
        />
        {fileProblems.length > 0 && (
          <ul className="composer__problems" role="alert" aria-label="Files not attached">
            {fileProblems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        )}
        <div className="composer__field">
          <button
            type="button"
            className="composer__attach"
            aria-label="Attach files (images, PDFs, text)"
            title="Attach images, PDFs or text files (or paste or drop them)"
            onClick={() => picker.current?.click()}
          >
            <span aria-hidden="true">+</span>
          </button>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            accept={ACCEPT}
            aria-label="Files to attach"
            onChange={(event) => {
              addFiles(Array.from(event.target.files ?? []));
              event.target.value = '';
            }}
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
            onPaste={(event) => {
              const pasted = Array.from(event.clipboardData.files);
              if (pasted.length === 0) return;
              event.preventDefault();
              addFiles(pasted);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                submit();
              } else if (event.key === 'Escape' && running && reachable) {
                event.preventDefault();
                stopTurn();
              }
            }}
          />
        </div>
        {running ? (
          <button
            type="button"
            className="btn composer__stop"
            disabled={!reachable}
            onClick={() => {
              stopTurn();
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
          Enter to send · Shift+Enter for a new line · / for prompts · paste or drop files · Esc to stop
        </p>
      </form>
    </div>
  );
}
