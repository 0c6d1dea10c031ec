import type { ServerSnapshot } from '../../../../shared/model/server.js';

/**
 * "Sandboxed" beside a local server that runs confined, "Not sandboxed"
 * beside one that runs with all of the person's rights (the reason on hover
 * and in the server's facts). Remote servers run elsewhere: no badge.
 */
export function SandboxBadge({ server }: { server: ServerSnapshot }) {
  const sandbox = server.sandbox;
  if (sandbox === undefined) return null;
  if (sandbox.state === 'on') {
    return (
      <span
        className="badge badge--info"
        title="Runs in an OS sandbox: see what it may read, write and reach below"
      >
        Sandboxed
      </span>
    );
  }
  return (
    <span className="badge badge--danger" title={`Not sandboxed: ${sandbox.reason ?? 'unknown reason'}`}>
      Not sandboxed
    </span>
  );
}
