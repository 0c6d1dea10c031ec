import { useId, useRef } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';

export interface TabDef {
  id: string;
  label: string;
  /** Small text after the label (a count). */
  badge?: string | undefined;
  render: () => ReactNode;
}

/**
 * A tab strip with its panel, following the WAI-ARIA tabs pattern: one tab
 * in the Tab order, arrows/Home/End move between tabs and select them.
 */
export function Tabs({
  tabs,
  selected,
  onSelect,
  label,
}: {
  tabs: readonly TabDef[];
  selected: string;
  onSelect: (id: string) => void;
  label: string;
}) {
  const baseId = useId();
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const current = tabs.find((t) => t.id === selected) ?? tabs[0];

  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.findIndex((t) => t.id === current?.id);
    let next: number | undefined;
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    const tab = next !== undefined ? tabs[next] : undefined;
    if (!tab) return;
    event.preventDefault();
    onSelect(tab.id);
    refs.current.get(tab.id)?.focus();
  };

  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tabs__list" onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const active = tab.id === current?.id;
          return (
            <button
              key={tab.id}
              ref={(el) => {
                if (el) refs.current.set(tab.id, el);
                else refs.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${tab.id}`}
              aria-selected={active}
              aria-controls={`${baseId}-panel-${tab.id}`}
              tabIndex={active ? 0 : -1}
              className="tabs__tab"
              onClick={() => {
                onSelect(tab.id);
              }}
            >
              {tab.label}
              {tab.badge !== undefined && <span className="tabs__badge">{tab.badge}</span>}
            </button>
          );
        })}
      </div>
      {current && (
        <div
          role="tabpanel"
          id={`${baseId}-panel-${current.id}`}
          aria-labelledby={`${baseId}-tab-${current.id}`}
          className="tabs__panel"
        >
          {current.render()}
        </div>
      )}
    </div>
  );
}
