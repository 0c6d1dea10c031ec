import type { DefinitionField, ToolChange } from '../../../../shared/model/tool-pins.js';
import { ServerText } from '../../common/server-text.js';

const FIELD_LABEL: Record<DefinitionField, string> = {
  name: 'Name',
  title: 'Title',
  description: 'Description',
  inputSchema: 'Input schema',
  outputSchema: 'Output schema',
  annotations: 'Annotations',
};

const SIGN = { same: ' ', removed: '−', added: '+' } as const;

/**
 * A tool's definition as it changed since the person approved its server
 * (or a tool that was not there then): old and new description, schemas and
 * annotations line by line, removed lines marked "−" and added ones "+".
 * Hidden characters arrive from the host already spelled out ("[U+200B]").
 */
export function DefinitionChange({ change }: { change: ToolChange }) {
  const title =
    change.kind === 'changed'
      ? 'This tool changed since you approved this server'
      : 'This tool is new: it was not there when this server was first listed';
  return (
    <section className="definition-change" role="note" aria-label="Tool definition changed">
      <h3 className="consent__label">{title}</h3>
      {change.hiddenCharacters && (
        <p className="definition-change__hidden">
          It contains hidden characters (zero-width, direction or tag characters), shown as [U+…].
        </p>
      )}
      {change.fields.map(({ field, lines }) => (
        <div key={field} className="definition-change__field">
          <h4 className="definition-change__name">{FIELD_LABEL[field]}</h4>
          {/* tabIndex: the block scrolls, so it must be reachable with the keyboard. */}
          <pre className="code-block definition-change__diff" tabIndex={0}>
            {lines.map((line, i) => (
              <span key={i} className={`definition-change__line definition-change__line--${line.op}`}>
                {SIGN[line.op]} <ServerText text={line.text} />
                {'\n'}
              </span>
            ))}
          </pre>
        </div>
      ))}
    </section>
  );
}
