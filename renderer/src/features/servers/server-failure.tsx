import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { plural } from '../../common/text.js';
import { Collapsible } from '../../common/collapsible.js';

/** Why the server failed, in one line, and the last things it wrote to stderr. */
export function ServerFailure({ server }: { server: ServerSnapshot }) {
  const lines = server.stderrTail;
  return (
    <div className="server-failure">
      <div className="inline-alert" role="alert">
        <strong>
          {(server.crashCount ?? 0) >= 2
            ? `Crashed ${String(server.crashCount)} times — stopped.`
            : 'The server failed.'}
        </strong>{' '}
        {server.error ?? 'It stopped without saying why.'}
      </div>
      {lines.length > 0 && (
        <Collapsible title="Server output" meta={`last ${plural(lines.length, 'line')} of stderr`}>
          <pre className="log">{lines.join('\n')}</pre>
        </Collapsible>
      )}
    </div>
  );
}
