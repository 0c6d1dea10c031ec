import type { ToolInfo } from '../../../../shared/model/server.js';

type Annotations = NonNullable<ToolInfo['annotations']>;

/**
 * What the server says about the tool, worded as its claims: a hint can be
 * wrong or false, so none of it is presented as a guarantee.
 */
export function AnnotationHints({ annotations }: { annotations: Annotations | undefined }) {
  const lines: { text: string; tone: 'neutral' | 'danger' | 'info' }[] = [];
  if (annotations?.readOnlyHint === true)
    lines.push({ text: 'The server says this tool only reads and changes nothing.', tone: 'neutral' });
  if (annotations?.readOnlyHint !== true && annotations?.destructiveHint === true)
    lines.push({ text: 'The server says this tool may delete or overwrite data.', tone: 'danger' });
  if (annotations?.readOnlyHint !== true && annotations?.destructiveHint === false)
    lines.push({
      text: 'The server says this tool only adds, never deletes or overwrites.',
      tone: 'neutral',
    });
  if (annotations?.openWorldHint === true)
    lines.push({
      text: 'The server says this tool reaches outside systems (e.g. the internet).',
      tone: 'info',
    });
  return (
    <section className="consent-hints" aria-label="Server hints">
      <h3 className="consent__label">What the server claims</h3>
      {lines.length === 0 ? (
        <p className="consent-hints__none">The server gives no hints about what this tool does.</p>
      ) : (
        <ul className="consent-hints__list">
          {lines.map((line) => (
            <li key={line.text} className={`consent-hints__item consent-hints__item--${line.tone}`}>
              {line.text}
            </li>
          ))}
        </ul>
      )}
      <p className="consent-hints__note">
        Hints come from the server and are not checked by this app. Judge by the arguments below.
      </p>
    </section>
  );
}
