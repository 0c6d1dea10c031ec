import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { ServerText } from '../../common/server-text.js';

const listed = (items: readonly string[]): string => (items.length > 0 ? items.join(', ') : 'nothing');

/**
 * The sandbox of a local server in words: what it may read, write and reach,
 * or why it runs without one and what would fix that; and what the sandbox
 * blocked since it started.
 */
export function SandboxFacts({ server }: { server: ServerSnapshot }) {
  const sandbox = server.sandbox;
  if (sandbox === undefined) return null;
  if (sandbox.state === 'off' || sandbox.policy === undefined) {
    return (
      <div className="notice notice--warning" role="status">
        <strong>Not sandboxed: {sandbox.reason ?? 'unknown reason'}.</strong> It can read, write and reach
        everything you can.
        {sandbox.fix !== undefined && <> Fix: {sandbox.fix}.</>}
      </div>
    );
  }
  const { policy, blocked } = sandbox;
  const network =
    policy.network.mode === 'none'
      ? 'No network'
      : policy.network.mode === 'filtered'
        ? `Allowed hosts only${policy.network.reason !== undefined ? ` (${policy.network.reason})` : ''}`
        : `Any host${policy.network.reason !== undefined ? ` (${policy.network.reason})` : ''}`;
  return (
    <>
      {blocked !== undefined && blocked.length > 0 && (
        <div className="notice notice--warning" role="status">
          <strong>Sandbox blocked:</strong> <ServerText text={blocked.join(' · ')} />
        </div>
      )}
      <dl className="facts" aria-label="Sandbox">
        <div className="facts__row facts__row--wide">
          <dt>Sandbox</dt>
          <dd>
            Sandboxed: it sees your files read-only, without your secrets, and writes only where listed.
          </dd>
        </div>
        <div className="facts__row facts__row--wide">
          <dt>May not read</dt>
          <dd className="mono">{listed(policy.denyRead)}</dd>
        </div>
        {policy.allowRead.length > 0 && (
          <div className="facts__row facts__row--wide">
            <dt>Also reads</dt>
            <dd className="mono">{listed(policy.allowRead)}</dd>
          </div>
        )}
        <div className="facts__row facts__row--wide">
          <dt>May write</dt>
          <dd className="mono">{listed(policy.write)}</dd>
        </div>
        <div className="facts__row facts__row--wide">
          <dt>May reach</dt>
          <dd>{network}</dd>
          {policy.network.hosts.length > 0 && (
            <dd className="facts__note mono">Allowed: {policy.network.hosts.join(', ')}</dd>
          )}
          {policy.network.denied !== undefined && policy.network.denied.length > 0 && (
            <dd className="facts__note mono">Denied: {policy.network.denied.join(', ')}</dd>
          )}
        </div>
      </dl>
    </>
  );
}
