import { ServerConnection } from '../host/servers/server-connection.js';
import { describeError } from '../host/errors.js';
import { nonInteractiveElicitation } from '../host/client-features/elicitation-non-interactive.js';

/**
 * The client the official MCP conformance suite drives
 * (`@modelcontextprotocol/conformance client --command …`): it is started
 * with the scenario's server URL as its last argument and the scenario name
 * in MCP_CONFORMANCE_SCENARIO, and does what that scenario expects of a
 * client. It connects through the host core's own ServerConnection (remote
 * transport, version negotiation, catalog, tool calls), so the suite
 * exercises exactly what the app runs. `npm run conformance` runs it.
 */

type Scenario = (connection: ServerConnection) => Promise<void>;

const scenarios: Record<string, Scenario> = {
  // The handshake itself is the test; connecting is all there is to do.
  initialize: () => Promise.resolve(),
  tools_call: async (connection) => {
    const result = await connection.callTool('add_numbers', JSON.stringify({ a: 5, b: 3 }));
    log(`add_numbers: ${JSON.stringify(result.content)}`);
  },
  // The tool's response stream is dropped after a priming event; the answer
  // only arrives on the resumed stream (retry interval, Last-Event-ID).
  'sse-retry': async (connection) => {
    const result = await connection.callTool('test_reconnection', '{}');
    log(`test_reconnection: ${JSON.stringify(result.content)}`);
  },
  // SEP-1034: the client accepts with nothing filled in; the host core adds the schema defaults.
  'elicitation-sep1034-client-defaults': async (connection) => {
    const result = await connection.callTool('test_client_elicitation_defaults', '{}');
    log(`test_client_elicitation_defaults: ${JSON.stringify(result.content)}`);
  },
};

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<number> {
  const url = process.argv.at(-1);
  const name = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const scenario = scenarios[name];
  if (url === undefined || !/^https?:\/\//.test(url) || !scenario) {
    process.stderr.write(
      `usage: MCP_CONFORMANCE_SCENARIO=<${Object.keys(scenarios).join('|')}> conformance-client <server-url>\n`,
    );
    return 2;
  }
  const connection = new ServerConnection(
    'conformance',
    { url },
    {
      appVersion: __APP_VERSION__,
      environment: () => Promise.resolve({ all: {}, source: 'fixed' }),
      onChange: () => undefined,
      elicitation: nonInteractiveElicitation,
    },
  );
  const snapshot = await connection.start();
  if (snapshot.status !== 'connected') {
    process.stderr.write(`conformance-client: ${snapshot.error ?? snapshot.status}\n`);
    return 3;
  }
  log(
    `connected: ${snapshot.httpTransport ?? '-'} ${snapshot.protocolVersion ?? '-'} (${snapshot.era ?? '-'} era)`,
  );
  try {
    await scenario(connection);
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
