import { describeError } from '../errors.js';
import type { ServerManager } from '../servers/server-manager.js';
import type { ConsentAudit } from '../persistence/consent-audit.js';

/**
 * Writes a call the person makes themselves (the Servers view) to the audit
 * trail as `user_call`. Only calls that will be sent are written: the server
 * and tool exist and the arguments are JSON. The trail must not stop a person
 * from using their own tool, so a failure to write it is reported, not thrown.
 */
export async function auditUserCall(
  open: () => Promise<{ audit: ConsentAudit }>,
  servers: ServerManager,
  call: { server: string; tool: string; argumentsJson: string },
): Promise<void> {
  if (!servers.has(call.server)) return;
  const connection = servers.get(call.server);
  const info = connection.catalog?.tools.find((t) => t.name === call.tool);
  if (!info) return;
  let args: unknown;
  try {
    args = JSON.parse(call.argumentsJson);
  } catch {
    return;
  }
  try {
    (await open()).audit.record({
      server: call.server,
      tool: call.tool,
      args,
      decision: 'user_call',
      identityHash: connection.identity.hash,
      annotations: info.annotations,
    });
  } catch (error) {
    // Never the arguments: only that the trail could not be written, and why.
    console.warn(`The audit trail could not record a call of "${call.tool}": ${describeError(error)}`);
  }
}
