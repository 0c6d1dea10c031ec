import type { ToolInfo } from '../../../../shared/model/server.js';

type Annotations = NonNullable<ToolInfo['annotations']>;

/**
 * The tool's behaviour hints as badges. Only hints the server actually set
 * are shown; they are the server's claims, which the host cannot verify.
 */
export function ToolHints({ annotations }: { annotations: Annotations | undefined }) {
  if (!annotations) return null;
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = annotations;
  const badges: { label: string; tone: 'neutral' | 'danger' | 'info' }[] = [];
  if (readOnlyHint === true) badges.push({ label: 'Read-only', tone: 'neutral' });
  // Per the spec, destructive and idempotent only mean something for tools that write.
  if (readOnlyHint !== true && destructiveHint === true)
    badges.push({ label: 'Destructive', tone: 'danger' });
  if (readOnlyHint !== true && idempotentHint === true) badges.push({ label: 'Idempotent', tone: 'neutral' });
  if (openWorldHint === true) badges.push({ label: 'Open world', tone: 'info' });
  if (badges.length === 0) return null;

  return (
    <div className="hints" title="Hints the server gives about this tool; the host does not verify them.">
      <span className="hints__label">Hints</span>
      <ul className="hints__list">
        {badges.map((badge) => (
          <li key={badge.label} className={`badge badge--${badge.tone}`}>
            {badge.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
