import { useEffect, useMemo, useState } from 'react';
import type { ToolResultChatBlock, ToolUseChatBlock } from '../../../../shared/model/chat.js';
import { toAppToolResult } from '../../../../shared/model/app-tool-result.js';
import { toolResourceUri } from '../../../../shared/model/tool-meta.js';
import { useChat, useChatActions } from '../chat/chat-context.js';
import { useAppState } from '../../store/store-context.js';
import { ToolApp } from './tool-app.js';

/**
 * The app of a chat tool call, when its tool has one: shown once the call is
 * allowed (never beside a pending consent, never for a declined call), from
 * the call's arguments and, once there, its result, which for a reopened conversation
 * come from the stored messages (no tool runs again). A cut result is
 * fetched whole for the app.
 */
export function ChatToolApp({
  call,
  result,
}: {
  call: ToolUseChatBlock;
  result: ToolResultChatBlock | undefined;
}) {
  const conversationId = useChat((s) => s.selectedId);
  // Not before the person allowed the call: an app must not draw beside a pending consent.
  const allowed = useChat((s) => s.toolCalls[call.id]?.status === 'running');
  const hasApp = useAppState((s) => {
    const tool = s.servers[call.server]?.tools.find((t) => t.name === call.tool);
    return tool !== undefined && toolResourceUri(tool) !== undefined;
  });
  const { getToolResult } = useChatActions();
  const input = useMemo(() => parseArguments(call.inputJson), [call.inputJson]);
  const [full, setFull] = useState<ToolResultChatBlock['content'] | undefined>(undefined);
  const truncated = result?.truncated !== undefined;

  useEffect(() => {
    if (!truncated || !hasApp) return;
    let current = true;
    void getToolResult(call.id).then((answer) => {
      if (current && answer.ok) setFull(answer.value.content);
    });
    return () => {
      current = false;
    };
  }, [truncated, hasApp, getToolResult, call.id]);

  const appResult = useMemo(() => {
    if (result?.status !== 'ok' || (truncated && full === undefined)) return undefined;
    return toAppToolResult({ ...result, content: full ?? result.content });
  }, [result, truncated, full]);
  if (!hasApp || conversationId === undefined) return null;
  if (result ? result.status === 'denied' : !allowed) return null;
  return (
    <ToolApp
      server={call.server}
      tool={call.tool}
      origin={{ kind: 'chat', conversationId }}
      input={input}
      result={appResult}
      cancelled={result !== undefined ? CANCEL_REASON[result.status] : undefined}
    />
  );
}

/** Why an app's call did not produce a result (ui/notifications/tool-cancelled). */
const CANCEL_REASON: Record<ToolResultChatBlock['status'], string | undefined> = {
  ok: undefined,
  error: 'The call failed',
  denied: undefined,
  cancelled: 'The call was stopped',
};

function parseArguments(json: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
