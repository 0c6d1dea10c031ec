import type { ToolInfo } from '../../../../shared/model/server.js';

type Annotations = NonNullable<ToolInfo['annotations']>;

const HINTS: readonly {
  key: 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint';
  label: string;
}[] = [
  { key: 'readOnlyHint', label: 'Only reads' },
  { key: 'destructiveHint', label: 'May delete or overwrite' },
  { key: 'idempotentHint', label: 'Safe to repeat' },
  { key: 'openWorldHint', label: 'Reaches outside systems' },
];

const said = (value: boolean | undefined): string =>
  value === true ? 'yes' : value === false ? 'no' : 'not said';

/**
 * The server now says something else about this tool than at its last call
 * (for example read-only then, destructive now). Shown above the hints, so a
 * changed claim is noticed before it is relied on.
 */
export function AnnotationChanges({ before, now }: { before: Annotations; now: Annotations | undefined }) {
  const changes = HINTS.filter(({ key }) => before[key] !== now?.[key]);
  return (
    <section className="consent-changed" role="note" aria-label="Changed since the last call">
      <h3 className="consent__label">The server changed what it says about this tool</h3>
      {changes.length === 0 ? (
        <p className="consent-changed__none">Its description of the tool differs from the last call.</p>
      ) : (
        <ul className="consent-changed__list">
          {changes.map(({ key, label }) => (
            <li key={key}>
              {label}: was <strong>{said(before[key])}</strong>, now <strong>{said(now?.[key])}</strong>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
