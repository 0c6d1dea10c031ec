/* eslint-disable @typescript-eslint/no-deprecated --
 * The server plays a 2025-era server: push-style roots/list, sampling and
 * elicitation requests and the initialize-scoped client capabilities are
 * deprecated from 2026-07-28 on, and are exactly what these features answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import type { Client, JSONRPCMessage } from '@modelcontextprotocol/client';
import type {
  ClientFeature,
  ClientFeatureContext,
} from '../../../../../electron/host/client-features/client-feature.js';
import { hostClientFeatures } from '../../../../../electron/host/client-features/feature-list.js';
import type { ClientFeatureServices } from '../../../../../electron/host/client-features/feature-list.js';
import { nonInteractiveElicitation } from '../../../../../electron/host/client-features/elicitation/elicitation-non-interactive.js';
import { AnthropicSamplingModel } from '../../../../../electron/host/client-features/sampling/sampling-model.js';
import { SamplingRateLimiter } from '../../../../../electron/host/client-features/sampling/sampling-rate-limit.js';
import { ConsentBroker } from '../../../../../electron/host/consent/consent-broker.js';
import { createServerClient } from '../../../../../electron/host/servers/server-client.js';
import type { ServerConfig } from '../../../../../shared/model/config.js';
import type { ConsentRequest } from '../../../../../shared/model/consent.js';

/**
 * What createServerClient declares and installs, seen from a real SDK server
 * over an in-memory link (the 2025 handshake, where the server records the
 * client's capabilities). The declared capabilities are pinned literally: a
 * client feature moving into its own folder must not change one byte of them.
 */

const ROOTS = { roots: { listChanged: true } };
const SAMPLING = { sampling: { tools: {} } };
const ELICITATION = { elicitation: { form: {}, url: {} } };
const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
/** Tool calls as tasks only (a host with no person to answer sampling or elicitation). */
const TASKS = { tasks: {} };
/** With a person: the server may also ask the host to run sampling and elicitation as tasks. */
const TASKS_BOTH_WAYS = {
  tasks: {
    list: {},
    cancel: {},
    requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
  },
};
const taskServices = { statusNotified: () => undefined };

interface Connected {
  client: Client;
  server: Server;
  /** The capabilities as the client wrote them into `initialize` (key order included). */
  sent: () => string;
}

const open: { client: Client; server: Server }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).flatMap(({ client, server }) => [client.close(), server.close()]));
});

/** A person who rejects every sampling request and fills each form with `{ city: 'Oslo' }`. */
function personServices(): ClientFeatureServices & { asked: ConsentRequest[] } {
  const asked: ConsentRequest[] = [];
  const consent: ConsentBroker = new ConsentBroker({
    onRequested: (request) => {
      asked.push(request);
      consent.answer(
        request.id,
        request.kind === 'elicitationForm'
          ? { action: 'accept', content: { city: 'Oslo' } }
          : { decision: 'reject' },
      );
    },
    onResolved: () => undefined,
  });
  return {
    asked,
    sampling: {
      consent,
      // Never reached: the person rejects first.
      model: new AnthropicSamplingModel(() =>
        Promise.resolve({ apiKey: 'unused', baseURL: 'http://127.0.0.1:9' }),
      ),
      limiter: new SamplingRateLimiter(10),
    },
    elicitation: { consent, openExternal: () => Promise.reject(new Error('no browser here')) },
  };
}

async function connect(
  features: readonly ClientFeature[] | undefined,
  config: () => ServerConfig = () => ({ command: 'unused' }),
): Promise<Connected> {
  const server = new Server(
    { name: 'probe', version: '1' },
    { capabilities: {}, instructions: 'PROBE-INSTRUCTIONS' },
  );
  const client = createServerClient({
    server: 'probe',
    appVersion: '0.0.0-test',
    negotiation: 'legacy-only',
    probeTimeoutMs: 1000,
    config,
    listChanged: {},
    features,
    onResourceUpdated: () => undefined,
    onLog: () => undefined,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const written: JSONRPCMessage[] = [];
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message, options) => {
    written.push(message);
    return send(message, options);
  };
  await server.connect(serverSide);
  await client.connect(clientSide);
  open.push({ client, server });
  const sent = (): string => {
    const init = written.find((m) => 'method' in m && m.method === 'initialize');
    return JSON.stringify(init && 'params' in init ? init.params?.capabilities : undefined);
  };
  return { client, server, sent };
}

describe('createServerClient: client features', () => {
  it('declares roots and the MCP Apps extension when no person is present (the default)', async () => {
    for (const features of [undefined, hostClientFeatures(), hostClientFeatures({})]) {
      const { server, sent } = await connect(features);
      expect(server.getClientCapabilities()).toStrictEqual({ ...ROOTS, ...APPS });
      expect(sent()).toBe(JSON.stringify({ ...ROOTS, ...APPS }));
    }
  });

  it('declares sampling and elicitation too when a person is present, in the same order as before', async () => {
    const { server, sent } = await connect(hostClientFeatures(personServices()));
    expect(server.getClientCapabilities()).toStrictEqual({ ...ROOTS, ...SAMPLING, ...ELICITATION, ...APPS });
    expect(sent()).toBe(JSON.stringify({ ...ROOTS, ...SAMPLING, ...ELICITATION, ...APPS }));
  });

  it('declares tasks both ways when a person answers sampling and elicitation (the app)', async () => {
    const { server, sent } = await connect(hostClientFeatures({ ...personServices(), tasks: taskServices }));
    const expected = { ...ROOTS, ...SAMPLING, ...ELICITATION, ...APPS, ...TASKS_BOTH_WAYS };
    expect(server.getClientCapabilities()).toStrictEqual(expected);
    expect(sent()).toBe(JSON.stringify(expected));
  });

  it('declares only task-augmented tool calls without a person (the one-shot CLI)', async () => {
    const { server, sent } = await connect(hostClientFeatures({ tasks: taskServices }));
    expect(server.getClientCapabilities()).toStrictEqual({ ...ROOTS, ...APPS, ...TASKS });
    expect(sent()).toBe(JSON.stringify({ ...ROOTS, ...APPS, ...TASKS }));
  });

  it('declares elicitation without sampling for the conformance client', async () => {
    const { server, sent } = await connect(hostClientFeatures({ elicitation: nonInteractiveElicitation }));
    expect(server.getClientCapabilities()).toStrictEqual({ ...ROOTS, ...ELICITATION, ...APPS });
    expect(sent()).toBe(JSON.stringify({ ...ROOTS, ...ELICITATION, ...APPS }));
  });

  it('answers roots/list from the entry as it is at each request, file:// only', async () => {
    let roots = ['file:///tmp/one', 'https://example.com/not-a-root'];
    const { server } = await connect(hostClientFeatures(), () => ({ command: 'unused', roots }));
    expect(await server.listRoots()).toEqual({ roots: [{ uri: 'file:///tmp/one', name: 'one' }] });
    roots = ['file:///tmp/two'];
    expect(await server.listRoots()).toEqual({ roots: [{ uri: 'file:///tmp/two', name: 'two' }] });
  });

  it("installs sampling and elicitation handlers that ask the person, naming this client's server", async () => {
    const services = personServices();
    const { server } = await connect(hostClientFeatures(services));
    await expect(
      server.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
        maxTokens: 10,
      }),
    ).rejects.toThrow(/User rejected sampling request/);
    const answer = await server.elicitInput({
      mode: 'form',
      message: 'Where?',
      requestedSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
    expect(answer).toEqual({ action: 'accept', content: { city: 'Oslo' } });
    expect(services.asked.map((r) => [r.kind, r.server])).toEqual([
      ['sampling', 'probe'],
      ['elicitationForm', 'probe'],
    ]);
  });

  it('has no sampling or elicitation handler without a person', async () => {
    const { server } = await connect(hostClientFeatures());
    await expect(server.listRoots()).resolves.toEqual({ roots: [] });
    await expect(
      server.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: 'x' } }],
        maxTokens: 1,
      }),
    ).rejects.toThrow();
  });

  it("merges a new feature's extension entry with the others and installs it with its server's context", async () => {
    const contexts: ClientFeatureContext[] = [];
    const probe: ClientFeature = {
      name: 'probe',
      capabilities: { extensions: { 'com.example/probe': { level: 2 } } },
      install: (_client, context) => contexts.push(context),
    };
    const config: ServerConfig = { command: 'probe-server' };
    const { server } = await connect([...hostClientFeatures(), probe], () => config);
    expect(server.getClientCapabilities()).toStrictEqual({
      ...ROOTS,
      extensions: { ...APPS.extensions, 'com.example/probe': { level: 2 } },
    });
    expect(contexts).toHaveLength(1);
    expect(contexts[0]?.server).toBe('probe');
    expect(contexts[0]?.config()).toBe(config);
    expect(contexts[0]?.instructions()).toBe('PROBE-INSTRUCTIONS');
  });
});
