import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { ToolInfo } from '../../../../shared/model/server.js';
import { firstLine } from '../../common/text.js';
import { useActions } from '../../store/store-context.js';
import { ToolToggle } from '../config/tool-toggle.js';
import { ToolAppTag } from '../apps/panel-tool-app.js';
import { ServerText } from '../../common/server-text.js';

/** From this many tools on, only the rows on screen are in the DOM. */
export const VIRTUALIZE_FROM = 200;

interface ToolListProps {
  tools: readonly ToolInfo[];
  selected: string | undefined;
  /** When given, each tool gets an on/off switch. */
  server?: string;
}

/**
 * The tools as buttons; each button's accessible name starts with the
 * tool's name. A long list (a server may list up to 1,000 tools) is
 * virtualized: it scrolls as one list, but only the rows in view exist.
 */
export function ToolList(props: ToolListProps) {
  return props.tools.length >= VIRTUALIZE_FROM ? (
    <VirtualToolList {...props} />
  ) : (
    <PlainToolList {...props} />
  );
}

function PlainToolList({ tools, selected, server }: ToolListProps) {
  return (
    <ul className="tool-list" aria-label="Tools">
      {tools.map((tool) => (
        <li key={tool.name} className={server !== undefined ? 'tool-list__row' : undefined}>
          <ToolRow tool={tool} selected={tool.name === selected} server={server} />
        </li>
      ))}
    </ul>
  );
}

function VirtualToolList({ tools, selected, server }: ToolListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // The virtualizer re-renders this component itself; nothing here relies on the React Compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: tools.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 58,
    overscan: 8,
    getItemKey: (index) => tools[index]?.name ?? index,
  });
  return (
    <div ref={scroller} className="tool-list tool-list--virtual">
      <ul aria-label="Tools" className="tool-list__inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const tool = tools[item.index];
          if (!tool) return null;
          return (
            <li
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              aria-setsize={tools.length}
              aria-posinset={item.index + 1}
              className={`tool-list__virtual-row${server !== undefined ? ' tool-list__row' : ''}`}
              style={{ transform: `translateY(${String(item.start)}px)` }}
            >
              <ToolRow tool={tool} selected={tool.name === selected} server={server} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function ToolRow({
  tool,
  selected,
  server,
}: {
  tool: ToolInfo;
  selected: boolean;
  server: string | undefined;
}) {
  const { selectTool } = useActions();
  const title = tool.title ?? tool.annotations?.title;
  const summary = firstLine(tool.description);
  return (
    <>
      <button
        type="button"
        className="tool-item"
        aria-current={selected ? 'true' : undefined}
        onClick={() => {
          selectTool(tool.name);
        }}
      >
        <span className="tool-item__name mono">
          <ServerText text={tool.name} />
        </span>
        {title !== undefined && (
          <span className="tool-item__title">
            <ServerText text={title} />
          </span>
        )}
        {summary !== '' && (
          <span className="tool-item__summary clamp-2">
            <ServerText text={summary} />
          </span>
        )}
        {tool.disabled === true && <span className="tag tool-item__off">Disabled</span>}
        <ToolAppTag tool={tool} />
      </button>
      {server !== undefined && <ToolToggle server={server} tool={tool} />}
    </>
  );
}
