import { useEffect, useRef } from 'react';
import type { ServerSnapshot, ToolInfo } from '../../../../shared/model/server.js';
import { toolCallOf } from '../../store/reducers.js';
import { useAppState } from '../../store/store-context.js';
import { Collapsible } from '../../common/collapsible.js';
import { ToolResult } from './tool-result.js';
import { AppOnlyBadge, PanelToolApp } from '../apps/panel-tool-app.js';
import { CallForm } from './call-form.js';
import { PinToggle } from './pin-toggle.js';
import { ToolHints } from './tool-hints.js';
import { ServerText } from '../../common/server-text.js';

/** One tool: what it is, its schema, the arguments editor and the last result. */
export function ToolPanel({ server, tool }: { server: ServerSnapshot; tool: ToolInfo }) {
  const call = useAppState((s) => toolCallOf(s, server.name, tool.name));
  const title = tool.title ?? tool.annotations?.title;
  const ref = useRef<HTMLDivElement>(null);

  // Picking a tool after scrolling down the page must not leave its panel above the fold.
  useEffect(() => {
    const panel = ref.current;
    if (!panel) return;
    const visibleTop = panel.closest('main')?.getBoundingClientRect().top ?? 0;
    if (panel.getBoundingClientRect().top < visibleTop) panel.scrollIntoView({ block: 'start' });
  }, [tool.name]);

  return (
    <div ref={ref} className="card tool-panel">
      <header className="tool-panel__header">
        <h3 className="tool-panel__heading">
          <span className="mono">
            <ServerText text={tool.name} />
          </span>
          {title !== undefined && (
            <span className="tool-panel__title">
              <ServerText text={title} />
            </span>
          )}
        </h3>
        <ToolHints annotations={tool.annotations} />
        <PinToggle server={server.name} tool={tool.name} />
      </header>
      {tool.description !== undefined && (
        <p className="tool-panel__description">
          <ServerText text={tool.description} />
        </p>
      )}
      <Collapsible title="Input schema">
        <pre className="code-block">{JSON.stringify(tool.inputSchema, null, 2)}</pre>
      </Collapsible>
      <AppOnlyBadge tool={tool} />
      <CallForm server={server} tool={tool} call={call} />
      {call.result && <ToolResult result={call.result} />}
      <PanelToolApp
        server={server.name}
        tool={tool}
        argumentsText={call.argumentsText}
        result={call.result}
      />
    </div>
  );
}
