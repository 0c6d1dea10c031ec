import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { plural } from '../../common/text.js';
import { ServerText } from '../../common/server-text.js';
import { useHostReachable } from '../../store/store-context.js';

const HTTP_TRANSPORT_NAMES = {
  'streamable-http': 'Streamable HTTP',
  sse: 'HTTP+SSE (legacy transport)',
} as const;

/**
 * MCP versions come in two eras. Neither is a problem to fix: the host
 * speaks both, so the words say which one, not that one is old.
 */
const ERA_TAGS = { modern: 'modern era', legacy: '2024–2025 era' } as const;
const ERA_VERSIONS = {
  modern: 'Protocol versions from 2026-07-28 on',
  legacy: 'Protocol versions 2024-11-05 to 2025-11-25',
} as const;
const ERA_NOTES = {
  modern: 'The newest generation of the protocol.',
  legacy: 'The generation of the protocol most servers speak today; fully supported, nothing to change.',
} as const;

/** What the server is: how it is reached, what it negotiated, who it says it is, what it offers. */
export function ServerFacts({ server }: { server: ServerSnapshot }) {
  // A process id of a host that is gone may belong to nothing, or to something else.
  const reachable = useHostReachable();
  const { serverInfo, protocolVersion, era, counts, capabilities } = server;
  const offers = [
    capabilities.tools && plural(counts.tools, 'tool'),
    capabilities.resources && plural(counts.resources, 'resource'),
    capabilities.resources &&
      (counts.resourceTemplates ?? 0) > 0 &&
      plural(counts.resourceTemplates ?? 0, 'resource template'),
    capabilities.prompts && plural(counts.prompts, 'prompt'),
    capabilities.logging && 'logging',
  ].filter((part): part is string => typeof part === 'string');

  return (
    <dl className="facts">
      <div className="facts__row facts__row--wide">
        <dt>{server.transport === 'stdio' ? 'Command' : 'URL'}</dt>
        <dd>
          <code className="target">{server.target}</code>
        </dd>
      </div>
      {server.httpTransport !== undefined && (
        <div className="facts__row">
          <dt>Transport</dt>
          <dd>{HTTP_TRANSPORT_NAMES[server.httpTransport]}</dd>
        </div>
      )}
      {protocolVersion !== undefined && (
        <div className="facts__row">
          <dt>Protocol</dt>
          <dd>
            <span className="mono">{protocolVersion}</span>
            {era !== undefined && (
              <span className="tag" title={ERA_VERSIONS[era]}>
                {ERA_TAGS[era]}
              </span>
            )}
          </dd>
          {era !== undefined && <dd className="facts__note">{ERA_NOTES[era]}</dd>}
        </div>
      )}
      {serverInfo && (
        <div className="facts__row">
          <dt>Server</dt>
          <dd>
            <span className="mono">
              <ServerText text={`${serverInfo.name} ${serverInfo.version}`} />
            </span>
          </dd>
        </div>
      )}
      {server.status === 'connected' && (
        <div className="facts__row">
          <dt>Offers</dt>
          <dd>{offers.length > 0 ? offers.join(' · ') : 'Nothing yet'}</dd>
        </div>
      )}
      {server.runtime?.note !== undefined && (
        <div className="facts__row facts__row--wide">
          <dt>Runtime</dt>
          <dd>{server.runtime.note}</dd>
        </div>
      )}
      {reachable &&
        server.pid !== undefined &&
        (server.status === 'connected' || server.status === 'connecting') && (
          <div className="facts__row">
            <dt>Process</dt>
            <dd>
              <span className="mono">{`PID ${server.pid}`}</span>
              {server.priority === 'lower' && (
                <span title="When the computer is busy, the app comes before this server (set `priority` in its entry)">
                  {' · lower CPU priority'}
                </span>
              )}
            </dd>
          </div>
        )}
    </dl>
  );
}
