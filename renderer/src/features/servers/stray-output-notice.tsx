import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { plural } from '../../common/text.js';
import { Collapsible } from '../../common/collapsible.js';

/**
 * A server that wrote lines to stdout that are not MCP messages (a banner, a
 * debug print). They were skipped, so it works; this says so, because it is
 * a bug the server's author may want to hear about.
 */
export function StrayOutputNotice({ server }: { server: ServerSnapshot }) {
  const stray = server.strayStdout;
  if (!stray || stray.count === 0) return null;
  return (
    <div className="notice notice--warning stray-notice">
      <strong>{`Wrote ${plural(stray.count, 'line')} that ${stray.count === 1 ? 'is' : 'are'} not MCP messages to stdout.`}</strong>{' '}
      <span className="notice__detail">
        They were skipped; stdout is reserved for MCP messages. The Logs tab has them (source “stdout”).
      </span>
      <Collapsible
        title="First lines"
        meta={plural(stray.first.length, 'line')}
        className="stray-notice__lines"
      >
        <pre className="log">{stray.first.join('\n')}</pre>
      </Collapsible>
    </div>
  );
}
