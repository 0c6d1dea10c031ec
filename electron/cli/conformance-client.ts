import { ServerConnection } from '../host/servers/server-connection.js';
import type { ConnectionOptions } from '../host/servers/server-connection.js';
import type { ServerSnapshot } from '../../shared/model/server.js';
import { describeError } from '../host/errors.js';
import { nonInteractiveElicitation } from '../host/client-features/elicitation/elicitation-non-interactive.js';
import { hostClientFeatures } from '../host/client-features/feature-list.js';
import { readConformanceContext } from './conformance/context.js';
import { plainScenarios } from './conformance/scenarios.js';
import type { ConformanceScenario } from './conformance/scenarios.js';
import { authScenarios, conformanceOAuth, signInWhileAsked } from './conformance/auth-scenarios.js';

/**
 * The client the official MCP conformance suite drives
 * (`@modelcontextprotocol/conformance client --command …`): it is started
 * with the scenario's server URL as its last argument, the scenario name in
 * MCP_CONFORMANCE_SCENARIO and, for some scenarios, a JSON context in
 * MCP_CONFORMANCE_CONTEXT, and does what that scenario expects of a client
 * (conformance/scenarios.ts). It connects through the host core's own
 * ServerConnection (remote transport, version negotiation, catalog, tool
 * calls), so the suite exercises exactly what the app runs.
 * `npm run conformance` runs it.
 */

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

const scenarios: Record<string, ConformanceScenario> = { ...plainScenarios(log) };
const signInScenarios = authScenarios();

async function main(): Promise<number> {
  const url = process.argv.at(-1);
  const name = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const scenario = scenarios[name];
  const signIn = signInScenarios[name];
  if (url === undefined || !/^https?:\/\//.test(url) || (!scenario && !signIn)) {
    const names = [...Object.keys(scenarios), ...Object.keys(signInScenarios)];
    process.stderr.write(
      `usage: MCP_CONFORMANCE_SCENARIO=<${names.join('|')}> conformance-client <server-url>\n`,
    );
    return 2;
  }
  const context = readConformanceContext(process.env.MCP_CONFORMANCE_CONTEXT);
  if (signIn) {
    // An authorization scenario: the server entry's oauth block, Sign in pressed when asked.
    const { oauth, env } = signIn.entry(context);
    return drive(
      new ServerConnection(
        'conformance',
        { url, oauth },
        connectionOptions(env, { oauth: conformanceOAuth() }),
      ),
      (connection, snapshot) => signInWhileAsked(connection, snapshot),
      (connection) => signIn.run(connection, log),
    );
  }
  if (!scenario) return 2;
  return drive(
    new ServerConnection(
      'conformance',
      { url },
      connectionOptions({}, scenario.connectionOptions?.(context)),
    ),
    (_connection, snapshot) => Promise.resolve(snapshot),
    (connection) => scenario.run(connection, context),
  );
}

/** The app's connection options, as the conformance client runs them (warnings and errors to stderr). */
function connectionOptions(
  env: Record<string, string>,
  extra: Partial<ConnectionOptions> = {},
): ConnectionOptions {
  return {
    appVersion: __APP_VERSION__,
    environment: () => Promise.resolve({ all: env, source: 'fixed' }),
    onChange: () => undefined,
    onLog: (entry) => {
      if (entry.level === 'warning' || entry.level === 'error') {
        process.stderr.write(`[${entry.source}] ${entry.text}\n`);
      }
    },
    clientFeatures: hostClientFeatures({ elicitation: nonInteractiveElicitation }),
    ...extra,
  };
}

/**
 * Starts the connection, lets the scenario settle it (press Sign in when
 * asked), runs the scenario and stops. Exit status: 0 done, 1 the scenario
 * failed, 3 never connected.
 */
async function drive(
  connection: ServerConnection,
  settle: (connection: ServerConnection, snapshot: ServerSnapshot) => Promise<ServerSnapshot>,
  run: (connection: ServerConnection) => Promise<void>,
): Promise<number> {
  try {
    const snapshot = await settle(connection, await connection.start());
    if (snapshot.status !== 'connected') {
      process.stderr.write(
        `conformance-client: ${snapshot.auth?.message ?? snapshot.error ?? snapshot.status}\n`,
      );
      return 3;
    }
    log(
      `connected: ${snapshot.httpTransport ?? '-'} ${snapshot.protocolVersion ?? '-'} (${snapshot.era ?? '-'} era)`,
    );
    await run(connection);
    return 0;
  } catch (error) {
    process.stderr.write(`conformance-client: ${describeError(error)}\n`);
    return 1;
  } finally {
    await connection.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`conformance-client: ${describeError(error)}\n`);
    process.exit(1);
  },
);
