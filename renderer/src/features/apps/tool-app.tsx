import { useEffect, useState } from 'react';
import type { AppOrigin, AppPermission, AppToolResult, AppView } from '../../../../shared/model/apps.js';
import { deliverAppMessage } from '../chat/app-messages.js';
import { useHost } from '../../store/area-context.js';
import { AppFrame } from './app-frame.js';
import { PermissionPrompt } from './permission-prompt.js';

type Phase =
  | { kind: 'opening' }
  | { kind: 'failed'; message: string }
  | { kind: 'asking'; view: AppView }
  | { kind: 'live'; view: AppView; granted: AppPermission[] }
  | { kind: 'closed' };

export interface ToolAppProps {
  server: string;
  tool: string;
  origin: AppOrigin;
  input: Record<string, unknown> | undefined;
  result: AppToolResult | undefined;
  cancelled: string | undefined;
}

/**
 * The app of a tool call (MCP Apps), wherever the call is shown: asks the
 * host to prepare the view, asks the person about any device permission it
 * declared, then shows it. Whatever goes wrong is one line under the card's
 * own text result, which stays.
 */
export function ToolApp({ server, tool, origin, input, result, cancelled }: ToolAppProps) {
  const host = useHost();
  const [phase, setPhase] = useState<Phase>({ kind: 'opening' });
  const [notes, setNotes] = useState<string[]>([]);
  const conversationId = origin.kind === 'chat' ? origin.conversationId : undefined;

  useEffect(() => {
    let current = true;
    let opened: string | undefined;
    void host
      .openAppView({
        server,
        tool,
        origin: conversationId !== undefined ? { kind: 'chat', conversationId } : { kind: 'panel' },
      })
      .then((answer) => {
        if (!answer.ok) {
          if (current) setPhase({ kind: 'failed', message: answer.error.message });
          return;
        }
        opened = answer.value.viewId;
        if (!current) {
          void host.closeAppView({ viewId: opened });
          return;
        }
        const view = answer.value;
        setNotes(view.refusedCsp.map((line) => `Not allowed for this app: ${line}`));
        setPhase(
          view.permissions.length > 0 ? { kind: 'asking', view } : { kind: 'live', view, granted: [] },
        );
      });
    return () => {
      current = false;
    };
  }, [host, server, tool, conversationId]);

  const note = (line: string) => {
    setNotes((list) => [...list.slice(-4), line]);
  };

  return (
    <div className="tool-app">
      {phase.kind === 'opening' && <p className="muted tool-app__note">Loading the app…</p>}
      {phase.kind === 'failed' && (
        <p className="tool-app__note tool-app__note--warning" role="status">
          {phase.message}
        </p>
      )}
      {phase.kind === 'asking' && (
        <PermissionPrompt
          server={server}
          permissions={phase.view.permissions}
          onAnswer={(granted) => {
            const view = phase.view;
            void host.grantAppPermissions({ viewId: view.viewId, permissions: granted }).then((answer) => {
              setPhase({ kind: 'live', view, granted: answer.ok ? answer.value : [] });
            });
          }}
        />
      )}
      {phase.kind === 'live' && (
        <AppFrame
          view={phase.view}
          granted={phase.granted}
          input={input}
          result={result}
          cancelled={cancelled}
          canMessage={conversationId !== undefined}
          onMessage={(text) => {
            if (conversationId === undefined) return false;
            deliverAppMessage(conversationId, text);
            note('The app put a message in the message box below. Review it, then press Send.');
            return true;
          }}
          onNote={note}
          onClosed={() => {
            setPhase({ kind: 'closed' });
          }}
        />
      )}
      {notes.map((line, index) => (
        <p key={index} className="tool-app__note muted" role="status">
          {line}
        </p>
      ))}
    </div>
  );
}
