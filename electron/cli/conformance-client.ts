import { ServerConnection } from '../host/servers/server-connection.js';
import type { ConnectionOptions } from '../host/servers/server-connection.js';
import { describeError } from '../host/errors.js';
import { nonInteractiveElicitation } from '../host/client-features/elicitation-non-interactive.js';
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
  if (signIn) return runSignInScenario(url, signIn, context);
  if (!scenario) return 2;
  const options: ConnectionOptions = {
    appVersion: __APP_VERSION__,
    environment: () => Promise.resolve({ all: {}, source: 'fixed' }),
    onChange: () => undefined,
    onLog: (entry) => {
      if (entry.level === 'warning' || entry.level === 'error') {
        process.stderr.write(`[${entry.source}] ${entry.text}\n`);
      }
    },
    elicitation: nonInteractiveElicitation,
    ...scenario.connectionOptions?.(context),
  };
  const connection = new ServerConnection('conformance', { url }, options);
  const snapshot = await connection.start();
  if (snapshot.status !== 'connected') {
    process.stderr.write(`conformance-client: ${snapshot.error ?? snapshot.status}\n`);
    return 3;
  }
  log(
    `connected: ${snapshot.httpTransport ?? '-'} ${snapshot.protocolVersion ?? '-'} (${snapshot.era ?? '-'} era)`,
  );
  try {
    await scenario.run(connection, context);
    return 0;
  } catch (error) {
    process.stderr.write(`conformance-client: ${describeError(error)}\n`);
    return 1;
  } finally {
    await connection.stop();
  }
}

/** An authorization scenario: the server entry's oauth block, Sign in pressed when asked. */
async function runSignInScenario(
  url: string,
  scenario: ReturnType<typeof authScenarios>[string],
  context: ReturnType<typeof readConformanceContext>,
): Promise<number> {
  const { oauth, env } = scenario.entry(context);
  const connection = new ServerConnection(
    'conformance',
    { url, oauth },
    {
      appVersion: __APP_VERSION__,
      environment: () => Promise.resolve({ all: env, source: 'fixed' }),
      onChange: () => undefined,
      onLog: (entry) => {
        process.stderr.write(`[${entry.source}] ${entry.text}\n`);
      },
      elicitation: nonInteractiveElicitation,
      oauth: conformanceOAuth(),
    },
  );
  try {
    const snapshot = await signInWhileAsked(connection, await connection.start());
    if (snapshot.status !== 'connected') {
      process.stderr.write(
        `conformance-client: ${snapshot.auth?.message ?? snapshot.error ?? snapshot.status}\n`,
      );
      return 3;
    }
    await scenario.run(connection, log);
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
