import type { ToolInfo } from '../../../../shared/model/server.js';
import { firstLine } from '../../lib/text.js';
import { useActions } from '../../store/store-context.js';
import { ToolToggle } from '../config/tool-toggle.js';
import { ServerText } from '../common/server-text.js';

/** The tools as buttons; each button's accessible name starts with the tool's name. */
export function ToolList({
  tools,
  selected,
  server,
}: {
  tools: readonly ToolInfo[];
  selected: string | undefined;
  /** When given, each tool gets an on/off switch. */
  server?: string;
}) {
  const { selectTool } = useActions();
  return (
    <ul className="tool-list" aria-label="Tools">
      {tools.map((tool) => {
        const title = tool.title ?? tool.annotations?.title;
        const summary = firstLine(tool.description);
        return (
          <li key={tool.name} className={server !== undefined ? 'tool-list__row' : undefined}>
            <button
              type="button"
              className="tool-item"
              aria-current={tool.name === selected ? 'true' : undefined}
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
            </button>
            {server !== undefined && <ToolToggle server={server} tool={tool} />}
          </li>
        );
      })}
    </ul>
  );
}
