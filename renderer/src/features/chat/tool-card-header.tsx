import type { ReactNode } from 'react';
import { DisclosureButton } from '../../common/disclosure-button.js';

/**
 * The header of a card about a tool call (the call itself, or the result of
 * the task it started): a button that folds the body, with an icon, the
 * tool and where it ran, and its status. `badges` come before the status,
 * `after` after it.
 */
export function ToolCardHeader({
  expanded,
  bodyId,
  onToggle,
  icon,
  label,
  tool,
  where,
  status,
  statusText,
  badges,
  after,
}: {
  expanded: boolean;
  bodyId: string;
  onToggle: () => void;
  icon: ReactNode;
  /** A word before the tool's name ("Task result"). */
  label?: string | undefined;
  tool: string;
  /** "on <server>", or "by the host" for a host tool. */
  where: string;
  /** The status modifier of the card (`tool-card__status--<status>`). */
  status: string;
  statusText: string;
  badges?: ReactNode;
  after?: ReactNode;
}) {
  return (
    <DisclosureButton className="tool-card__header" expanded={expanded} controls={bodyId} onToggle={onToggle}>
      <span className="tool-card__icon" aria-hidden="true">
        {icon}
      </span>
      <span className="tool-card__name">
        {label !== undefined && <span className="task-result-card__label">{label}</span>}
        <span className="tool-card__tool">{tool}</span>
        <span className="tool-card__server">{where}</span>
      </span>
      {badges}
      <span className={`tool-card__status tool-card__status--${status}`}>{statusText}</span>
      {after}
    </DisclosureButton>
  );
}
