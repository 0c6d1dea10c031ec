import type { ConnectionOptions, ServerConnection } from '../../host/servers/server-connection.js';
import { readResource } from '../../host/features/resources.js';
import { getPrompt } from '../../host/features/prompts.js';
import { describeError } from '../../host/errors.js';
import type { ConformanceContext } from './context.js';

/**
 * What one conformance scenario asks of the client. The client connects with
 * the host core's ServerConnection (the same code the app runs) and then does
 * only what the app would do at a person's request: call tools, read
 * resources, get prompts. Whatever the protocol demands on the way (headers,
 * `_meta`, retries, multi-round-trip input, schema handling) is the host
 * core's job, which is what the suite checks.
 */
export interface ConformanceScenario {
  /**
   * Extra ServerConnection options for this scenario, from the suite's
   * context: an auth scenario supplies its OAuth provider (and whatever
   * credentials the context carries) here.
   */
  connectionOptions?: (context: ConformanceContext) => Partial<ConnectionOptions>;
  /** What to do once connected. */
  run: (connection: ServerConnection, context: ConformanceContext) => Promise<void>;
}

export type Log = (line: string) => void;

/** Calls a tool as the app does (arguments as JSON text, validated by the host core) and logs the answer. */
async function call(connection: ServerConnection, log: Log, name: string, args: unknown): Promise<void> {
  const result = await connection.callTool(name, JSON.stringify(args));
  log(`${name}: ${JSON.stringify(result.content)}${result.isError ? ' (tool error)' : ''}`);
}

/**
 * The smallest arguments a tool's input schema accepts: every required
 * property of a primitive type gets a placeholder. For scenarios that only
 * need the client to call each tool it kept.
 */
export function placeholderArguments(inputSchema: Record<string, unknown>): Record<string, unknown> {
  const properties = (inputSchema.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = Array.isArray(inputSchema.required) ? (inputSchema.required as unknown[]) : [];
  const args: Record<string, unknown> = {};
  for (const key of required) {
    if (typeof key !== 'string') continue;
    const type = properties[key]?.type;
    args[key] = type === 'integer' || type === 'number' ? 0 : type === 'boolean' ? false : 'conformance';
  }
  return args;
}

/** The client scenarios that need no sign-in, by the suite's names. */
export function plainScenarios(log: Log): Record<string, ConformanceScenario> {
  return {
    // The handshake itself is the test; connecting is all there is to do.
    initialize: { run: () => Promise.resolve() },
    tools_call: { run: (connection) => call(connection, log, 'add_numbers', { a: 5, b: 3 }) },
    // The tool's response stream is dropped after a priming event; the answer
    // only arrives on the resumed stream (retry interval, Last-Event-ID).
    'sse-retry': { run: (connection) => call(connection, log, 'test_reconnection', {}) },
    // SEP-1034: the client accepts with nothing filled in; the host core adds the schema defaults.
    'elicitation-sep1034-client-defaults': {
      run: (connection) => call(connection, log, 'test_client_elicitation_defaults', {}),
    },
    // SEP-2575: every request carries the `_meta` envelope and the version header; the
    // server refuses the first request with -32022 and the core retries. Connecting and
    // listing is what exercises it (the server offers nothing to call).
    'request-metadata': { run: () => Promise.resolve() },
    // SEP-2322: each tool answers input_required (elicitation) first; the core answers
    // through its elicitation handler and retries. The unrelated call runs while the
    // first flow is between rounds, so its request must carry none of that flow's state.
    'sep-2322-client-request-state': {
      run: async (connection) => {
        await Promise.all([
          call(connection, log, 'test_mrtr_echo_state', {}),
          call(connection, log, 'test_mrtr_unrelated', {}),
        ]);
        await call(connection, log, 'test_mrtr_no_state', {});
        await call(connection, log, 'test_mrtr_no_result_type', {});
      },
    },
    // SEP-2243: Mcp-Method / Mcp-Name on every POST; use everything the server offers.
    'http-standard-headers': {
      run: async (connection) => {
        const catalog = connection.catalog;
        for (const tool of catalog?.tools ?? []) await call(connection, log, tool.name, {});
        for (const resource of catalog?.resources ?? []) {
          const read = await readResource(connection, { uri: resource.uri });
          log(`read ${read.uri}: ${String(read.contents.length)} item(s)`);
        }
        for (const prompt of catalog?.prompts ?? []) {
          const got = await getPrompt(connection, prompt.name, {});
          log(`prompt ${got.name}: ${String(got.messages.length)} message(s)`);
        }
      },
    },
    // SEP-2243: the tools and arguments come from the context; the core mirrors the
    // x-mcp-header parameters into Mcp-Param-* headers (null ones omitted).
    'http-custom-headers': {
      run: async (connection, context) => {
        const calls = context.toolCalls ?? [];
        if (calls.length === 0) throw new Error('the context names no tool calls');
        for (const { name, arguments: args } of calls) await call(connection, log, name, args);
      },
    },
    // SEP-2243: tools with invalid x-mcp-header declarations are dropped by the core;
    // the client calls every tool it kept.
    'http-invalid-tool-headers': {
      run: async (connection) => {
        for (const tool of connection.catalog?.tools ?? []) {
          await call(connection, log, tool.name, placeholderArguments(tool.inputSchema));
        }
      },
    },
    // SEP-2106: listing (done by connecting) must not fetch the network $ref; neither may
    // checking arguments against that schema before a call.
    'json-schema-ref-no-deref': {
      run: async (connection) => {
        await call(connection, log, 'lookup_user', { id: 'user-1' }).catch((error: unknown) => {
          // The scenario's server lists the tool but does not implement it.
          log(`lookup_user: ${describeError(error)}`);
        });
      },
    },
    // SEP-1613: the input schema the catalog holds is the server's, keyword for keyword.
    'json-schema-2020-12-preservation': {
      run: async (connection) => {
        const tool = connection.catalog?.tool('json_schema_2020_12_tool');
        if (!tool) throw new Error('the server did not list json_schema_2020_12_tool');
        await call(connection, log, 'json_schema_echo', { schema: tool.inputSchema });
      },
    },
  };
}
