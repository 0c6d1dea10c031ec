import { useMemo } from 'react';
import { toAppToolResult } from '../../../../shared/model/app-tool-result.js';
import type { ToolCallResult, ToolInfo } from '../../../../shared/model/server.js';
import { toolResourceUri, visibleToModel } from '../../../../shared/model/tool-meta.js';
import { ToolApp } from './tool-app.js';

/**
 * The app of a tool called from Servers → Tools, shown under its result (the
 * same view as in the chat; it can call tools and read resources, but has no
 * conversation to write into). Keyed by the result, so each call gets a
 * fresh view.
 */
export function PanelToolApp({
  server,
  tool,
  argumentsText,
  result,
}: {
  server: string;
  tool: ToolInfo;
  argumentsText: string | undefined;
  result: ToolCallResult | undefined;
}) {
  const input = useMemo(() => {
    try {
      const value: unknown = JSON.parse(argumentsText ?? '{}');
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  }, [argumentsText]);
  const appResult = useMemo(() => (result ? toAppToolResult(result) : undefined), [result]);
  if (toolResourceUri(tool) === undefined || !result) return null;
  return (
    <ToolApp
      key={`${String(result.durationMs)}-${String(result.content.length)}`}
      server={server}
      tool={tool.name}
      origin={{ kind: 'panel' }}
      input={input}
      result={appResult}
      cancelled={undefined}
    />
  );
}

/** A one-line badge for tools only an app may call (visibility without "model"). */
export function AppOnlyBadge({ tool }: { tool: ToolInfo }) {
  if (visibleToModel(tool)) return null;
  return (
    <p className="tool-panel__app-only" role="note">
      Only its app can call this tool; Claude never sees it.
    </p>
  );
}

/** In the tool list: "App" for a tool shown with an app, "App only" for one only its app may call. */
export function ToolAppTag({ tool }: { tool: ToolInfo }) {
  if (!visibleToModel(tool)) return <span className="tag tool-item__app">App only</span>;
  if (toolResourceUri(tool) !== undefined) return <span className="tag tool-item__app">App</span>;
  return null;
}
