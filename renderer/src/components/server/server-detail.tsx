import { useAppState } from '../../store/store-context.js';
import { Collapsible } from '../common/collapsible.js';
import { ToolsSection } from '../tools/tools-section.js';
import { ServerFacts } from './server-facts.js';
import { ServerFailure } from './server-failure.js';
import { ServerHeader } from './server-header.js';
import { RestartNotice } from './restart-notice.js';

/** Everything about the selected server: status, what it is, why it failed, its tools. */
export function ServerDetail({ name }: { name: string }) {
  const server = useAppState((s) => s.servers[name]);
  if (!server) return null;

  return (
    <article className="server-detail">
      <div className="card server-card">
        <ServerHeader server={server} />
        {server.status === 'failed' && <ServerFailure server={server} />}
        {(server.status === 'restarting' ||
          (server.status === 'connecting' && (server.crashCount ?? 0) > 0)) && (
          <RestartNotice server={server} />
        )}
        <ServerFacts server={server} />
        {server.instructions !== undefined && server.instructions.trim() !== '' && (
          <Collapsible
            title="Instructions"
            meta="from the server, for the model"
            className="server-card__section"
          >
            <pre className="prose-text">{server.instructions}</pre>
          </Collapsible>
        )}
      </div>
      <ToolsSection server={server} />
    </article>
  );
}
