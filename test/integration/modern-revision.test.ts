import { afterEach, describe, expect, it } from 'vitest';
import { ConsentBroker } from '../../electron/host/consent/consent-broker.js';
import { subscribeResource, unsubscribeResource } from '../../electron/host/features/resources.js';
import { loadSkill, readSkillFile } from '../../electron/host/features/skills.js';
import type { ServerConnection } from '../../electron/host/servers/server-connection.js';
import type { NewLogEntry } from '../../electron/host/servers/lifecycle/server-log.js';
import type { ConsentRequest } from '../../shared/model/consent.js';
import type { ToolCallResult } from '../../shared/model/server.js';
import { startModernHttp } from '../helpers/http-servers.js';
import type { HttpServerProcess } from '../helpers/http-servers.js';
import { openConnection, stopConnections } from '../helpers/connection.js';
import { AnthropicSamplingModel } from '../../electron/host/client-features/sampling/sampling-model.js';
import { hostClientFeatures } from '../../electron/host/client-features/feature-list.js';
import { createTestHost, value, waitForEvent } from '../helpers/host.js';
import { fixtureServer } from '../helpers/servers.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';

// The 2026-07-28 revision beyond the handshake, against a server on the
// official v2 server SDK over Streamable HTTP (test/fixtures/servers/modern-server.mjs "full").

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await stopConnections();
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function server(options: { toolsTtlMs?: number } = {}): Promise<HttpServerProcess> {
  const started = await startModernHttp({ full: true, ...options });
  cleanup.push(() => started.stop());
  return started;
}

function text(result: ToolCallResult): string {
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

async function seen(connection: ServerConnection): Promise<string[]> {
  return JSON.parse(text(await connection.callTool('seen', '{}'))) as string[];
}

/** A real ConsentBroker whose requests are answered by `answer`, as the renderer would. */
function consentAnswering(answer: (request: ConsentRequest) => unknown): {
  consent: ConsentBroker;
  asked: ConsentRequest[];
} {
  const asked: ConsentRequest[] = [];
  const consent: ConsentBroker = new ConsentBroker({
    onRequested: (request) => {
      asked.push(request);
      queueMicrotask(() => {
        consent.answer(request.id, answer(request));
      });
    },
    onResolved: () => undefined,
  });
  return { consent, asked };
}

describe('2026-07-28 revision through the host core', () => {
  it('answers an input_required elicitation through consent, then the call completes on retry', async () => {
    const { origin } = await server();
    const { consent, asked } = consentAnswering(() => ({ action: 'accept', content: { note: 'go' } }));
    const { connection } = openConnection(
      { url: `${origin}/mcp` },
      {
        clientFeatures: hostClientFeatures({
          elicitation: { consent, openExternal: () => Promise.reject(new Error('no browser')) },
        }),
      },
    );
    expect((await connection.start()).era).toBe('modern');

    const result = await connection.callTool('confirm', '{"action":"deploy"}');
    // The form's default (sure: true) is applied by the host core; the state is echoed back.
    expect(text(result)).toBe('accept {"sure":true,"note":"go"} confirm:deploy');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      kind: 'elicitationForm',
      server: 'fixture',
      prompt: { message: 'Really deploy?' },
    });
  });

  it('a declined input_required elicitation reaches the server as declined', async () => {
    const { origin } = await server();
    const { consent } = consentAnswering(() => ({ action: 'decline' }));
    const { connection } = openConnection(
      { url: `${origin}/mcp` },
      {
        clientFeatures: hostClientFeatures({
          elicitation: { consent, openExternal: () => Promise.reject(new Error('no browser')) },
        }),
      },
    );
    await connection.start();
    expect(text(await connection.callTool('confirm', '{"action":"drop"}'))).toBe('decline null confirm:drop');
  });

  it('answers an input_required roots/list with the roots configured for the server', async () => {
    const { origin } = await server();
    const { connection } = openConnection({ url: `${origin}/mcp`, roots: ['file:///work/project'] });
    await connection.start();
    expect(text(await connection.callTool('where', '{}'))).toBe('file:///work/project');
  });

  it('sends the _meta envelope, Mcp-Method, Mcp-Name and Mcp-Param headers; a null argument is omitted', async () => {
    const { origin } = await server();
    const { connection } = openConnection({ url: `${origin}/mcp` });
    await connection.start();
    const echoed = JSON.parse(
      text(await connection.callTool('route', '{"region":"eu west 1","verbose":null}')),
    ) as { headers: Record<string, string>; meta: string[]; arguments: unknown };
    expect(echoed.headers).toMatchObject({
      'mcp-method': 'tools/call',
      'mcp-name': 'route',
      'mcp-param-region': 'eu west 1',
    });
    expect(echoed.headers['mcp-param-verbose']).toBeUndefined();
    expect(echoed.arguments).toEqual({ region: 'eu west 1' });
    expect(echoed.meta).toEqual(
      expect.arrayContaining([
        'io.modelcontextprotocol/clientCapabilities',
        'io.modelcontextprotocol/clientInfo',
        'io.modelcontextprotocol/protocolVersion',
      ]),
    );
    const withVerbose = JSON.parse(
      text(await connection.callTool('route', '{"region":"Zürich","verbose":true}')),
    ) as { headers: Record<string, string> };
    // Non-ASCII goes Base64-encoded; a boolean as its literal.
    expect(withVerbose.headers['mcp-param-region']).toBe(
      `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
    );
    expect(withVerbose.headers['mcp-param-verbose']).toBe('true');
  });

  it('drops a tool with an invalid x-mcp-header declaration and says why in the server log', async () => {
    const { origin } = await server();
    const logs: NewLogEntry[] = [];
    const { connection } = openConnection({ url: `${origin}/mcp` }, { onLog: (entry) => logs.push(entry) });
    const snapshot = await connection.start();
    const names = snapshot.tools.map((tool) => tool.name);
    expect(names).toContain('route');
    expect(names).not.toContain('bad_header');
    const line = logs.find((entry) => entry.text.includes('bad_header'));
    expect(line?.level).toBe('warning');
    expect(line?.text).toMatch(/bad_header.*x-mcp-header.*number/);
  });

  it('uses subscriptions/listen for a resource subscription and delivers its updates', async () => {
    const { origin } = await server();
    const updated: string[] = [];
    const { connection } = openConnection(
      { url: `${origin}/mcp` },
      { onResourceUpdated: (_server, uri) => updated.push(uri) },
    );
    await connection.start();
    await subscribeResource(connection, 'fixture://status');
    await connection.callTool('touch', '{}');
    await expect.poll(() => updated, { timeout: 5000 }).toEqual(['fixture://status']);
    const methods = await seen(connection);
    expect(methods).toContain('subscriptions/listen');
    expect(methods).not.toContain('resources/subscribe');

    await unsubscribeResource(connection, 'fixture://status');
    await connection.callTool('touch', '{}');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(updated).toEqual(['fixture://status']);
  });

  it('honours the ttlMs of tools/list: a reconnect within it lists nothing again', async () => {
    const { origin } = await server({ toolsTtlMs: 60_000 });
    const { connection } = openConnection({ url: `${origin}/mcp` });
    await connection.start();
    await connection.restart();
    expect((await seen(connection)).filter((method) => method === 'tools/list')).toHaveLength(1);
  });

  it('without a ttlMs, a reconnect lists again', async () => {
    const { origin } = await server();
    const { connection } = openConnection({ url: `${origin}/mcp` });
    await connection.start();
    await connection.restart();
    expect((await seen(connection)).filter((method) => method === 'tools/list')).toHaveLength(2);
  });

  it('lists again when the ttlMs runs out, so the catalog is never older than the server allows', async () => {
    const { origin } = await server({ toolsTtlMs: 1200 });
    const { connection } = openConnection({ url: `${origin}/mcp` });
    await connection.start();
    await expect
      .poll(async () => (await seen(connection)).filter((method) => method === 'tools/list').length, {
        timeout: 8000,
        interval: 300,
      })
      .toBeGreaterThanOrEqual(2);
  });
});

describe('log level on a 2026-07-28 connection', () => {
  it('travels in the _meta of each request, as that wire has no logging/setLevel', async () => {
    const { origin } = await server();
    const { connection } = openConnection({ url: `${origin}/mcp` });
    await connection.start();
    const before = JSON.parse(text(await connection.callTool('route', '{"region":"a"}'))) as {
      logLevel: unknown;
    };
    expect(before.logLevel).toBeNull();
    await connection.setLogLevel('debug');
    const after = JSON.parse(text(await connection.callTool('route', '{"region":"a"}'))) as {
      logLevel: unknown;
    };
    expect(after.logLevel).toBe('debug');
    expect(await seen(connection)).not.toContain('logging/setLevel');
    // Kept across a reconnect.
    await connection.restart();
    const again = JSON.parse(text(await connection.callTool('route', '{"region":"a"}'))) as {
      logLevel: unknown;
    };
    expect(again.logLevel).toBe('debug');
  });
});

describe('health checks on a 2026-07-28 connection', () => {
  it('stay connected: the check uses server/discover, as the modern wire has no ping', async () => {
    const { origin } = await server();
    const logs: NewLogEntry[] = [];
    const { connection } = openConnection(
      { url: `${origin}/mcp` },
      { pingIntervalMs: 200, pingTimeoutMs: 5000, onLog: (entry) => logs.push(entry) },
    );
    await connection.start();
    const discoversBefore = (await seen(connection)).filter((m) => m === 'server/discover').length;
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const snapshot = connection.snapshot();
    expect(snapshot.status).toBe('connected');
    expect(snapshot.crashCount).toBeUndefined();
    expect(logs.filter((entry) => /ping/.test(entry.text))).toEqual([]);
    const discoversAfter = (await seen(connection)).filter((m) => m === 'server/discover').length;
    expect(discoversAfter).toBeGreaterThan(discoversBefore);
  });
});

describe('multi-round-trip sampling through the host', () => {
  it('asks the person, calls Claude, lets them review, and the call completes with the answer', async () => {
    const claude = await startFakeAnthropic();
    cleanup.push(() => claude.close());
    const t = await createTestHost(
      { modern: fixtureServer('modern-server.mjs', 'stdio', 'full') },
      {
        samplingModel: new AnthropicSamplingModel(() =>
          Promise.resolve({ apiKey: 'test-key', baseURL: claude.url }),
        ),
      },
    );
    cleanup.push(() => t.host.dispose());
    const consent = (kind: ConsentRequest['kind']) =>
      waitForEvent(
        t,
        (event, payload) => {
          const request = event === 'consentRequested' ? (payload as ConsentRequest) : undefined;
          return request?.kind === kind ? request : undefined;
        },
        `a ${kind} consent request`,
      );
    const started = value(await t.api.startServer({ name: 'modern' }));
    expect(started).toMatchObject({ status: 'connected', era: 'modern' });
    claude.enqueue({ type: 'text', text: 'Paris.' });

    const call = t.api.callTool({
      server: 'modern',
      tool: 'ask_model',
      argumentsJson: '{"question":"Capital of France?"}',
    });
    const asked = await consent('sampling');
    expect(asked.server).toBe('modern');
    expect(claude.messageRequests()).toHaveLength(0);
    value(await t.api.answerConsent({ id: asked.id, answer: { decision: 'approve', maxTokens: 50 } }));
    const review = await consent('samplingReview');
    value(await t.api.answerConsent({ id: review.id, answer: { decision: 'approve' } }));

    const result = value(await call);
    expect(result.content[0]).toEqual({ type: 'text', text: 'model said: Paris.' });
    expect(claude.messageRequests()).toHaveLength(1);
  });
});

describe('skills (SEP-2640)', () => {
  async function skillReads(connection: ServerConnection): Promise<string[]> {
    return JSON.parse(text(await connection.callTool('skill_reads', '{}'))) as string[];
  }

  it('lists skills without reading a file; loads one only on demand, checked against its entry', async () => {
    const { connection } = openConnection(fixtureServer('modern-server.mjs', 'stdio', 'full'));
    expect((await connection.start()).era).toBe('modern');
    expect(connection.catalog?.skills.map((skill) => skill.frontmatter.name).sort()).toEqual([
      'evil',
      'notes',
    ]);
    expect(await skillReads(connection)).toEqual([]);

    const notes = await loadSkill(connection, 'skill://notes/SKILL.md');
    expect(notes).toMatchObject({
      name: 'notes',
      description: 'Take notes',
      files: ['skill://notes/references/STYLE.md'],
    });
    expect(notes.body).toContain('Write things down.');
    expect((await readSkillFile(connection, notes.uri, 'references/STYLE.md')).text).toBe(
      'Short sentences.\n',
    );
    expect(await skillReads(connection)).toEqual([
      'skill://notes/SKILL.md',
      'skill://notes/references/STYLE.md',
    ]);
  });

  it('refuses a skill whose SKILL.md does not match its entry, and never reads its other files', async () => {
    const { connection } = openConnection(fixtureServer('modern-server.mjs', 'stdio', 'full'));
    await connection.start();
    await expect(loadSkill(connection, 'skill://evil/SKILL.md')).rejects.toThrow(
      /Skill "evil" of server "fixture": skill:\/\/evil\/SKILL.md was refused: its (size|digest) does not match/,
    );
    await expect(readSkillFile(connection, 'skill://evil/SKILL.md', 'references/MORE.md')).rejects.toThrow(
      /is not loaded/,
    );
    expect(await skillReads(connection)).toEqual(['skill://evil/SKILL.md']);
  });
});
