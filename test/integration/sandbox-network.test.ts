import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsentRequest } from '../../shared/model/consent.js';
import { NodePlatform } from '../../electron/host/node-platform.js';
import { isPrivateAddress } from '../../electron/host/servers/stdio/sandbox/network/address-class.js';
import { NETWORK_FOLDER_NAME } from '../../electron/host/servers/stdio/sandbox/network/proxy-launch.js';
import { createTestHost, start, value, waitForEvent, type TestHost } from '../helpers/host.js';
import { fixtureServer } from '../helpers/servers.js';

// Real bubblewrap, socat and the host's filtering proxy around a real server. The data folder lives
// under /var/tmp, not /tmp: the sandbox gives each server a private /tmp.
const root = mkdtempSync('/var/tmp/mcp-sandbox-net-');
const home = join(root, 'home');
const dataDir = join(root, 'data');

let t: TestHost;
let web: HttpServer;
let webPort = 0;
let canary: Server;
let canaryPort = 0;
let canaryConnections = 0;
const savedHome = process.env.HOME;

const portOf = (server: Server | HttpServer): number => {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
};

beforeAll(async () => {
  mkdirSync(home, { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  web = createHttpServer((_request, response) => {
    response.end('hello from the host');
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  webPort = portOf(web);
  canary = createServer((socket) => {
    canaryConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  canaryPort = portOf(canary);
  process.env.HOME = home;
  t = await createTestHost(
    {
      net: {
        ...fixtureServer('sandbox-net-prober.mjs'),
        env: { HOME: home },
        sandbox: { allowHosts: [`127.0.0.1:${String(webPort)}`] },
      },
      other: {
        ...fixtureServer('sandbox-net-prober.mjs'),
        env: { HOME: home },
        sandbox: { allowHosts: [`127.0.0.1:${String(canaryPort)}`] },
      },
    },
    { platform: new NodePlatform(dataDir, undefined, { keychain: null }) },
  );
});

afterAll(async () => {
  await t.dispose();
  web.close();
  canary.close();
  process.env.HOME = savedHome;
  rmSync(root, { recursive: true, force: true });
});

async function call(tool: string, args: Record<string, unknown>): Promise<string> {
  const result = value(await t.api.callTool({ server: 'net', tool, argumentsJson: JSON.stringify(args) }));
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** Starts a call, answers the network question it raises, and returns the question and the call's text. */
async function callAnswering(
  tool: string,
  args: Record<string, unknown>,
  decision: 'allow-once' | 'always' | 'deny',
): Promise<{ request: ConsentRequest; text: string }> {
  const from = t.events.length;
  const pending = call(tool, args);
  const request = await waitForEvent(
    t,
    (event, payload) =>
      event === 'consentRequested' && (payload as ConsentRequest).kind === 'network'
        ? (payload as ConsentRequest)
        : undefined,
    'a network question',
    from,
  );
  value(await t.api.answerConsent({ id: request.id, answer: { decision } }));
  return { request, text: await pending };
}

const questionsSince = (from: number): number =>
  t.events.slice(from).filter((e) => e.event === 'consentRequested').length;

const warnings = async (): Promise<string[]> =>
  value(await t.api.getServerLogs({ name: 'net' }))
    .entries.filter((e) => e.source === 'host' && e.level === 'warning')
    .map((e) => e.text);

describe('the network of a sandboxed server (filtering proxy)', () => {
  it('reaches an allowed host through its proxy, plain HTTP and a CONNECT tunnel', async () => {
    const snapshot = await start(t.api, 'net');
    expect(snapshot.status).toBe('connected');
    expect(snapshot.sandbox?.policy?.network).toMatchObject({
      mode: 'filtered',
      hosts: [`127.0.0.1:${String(webPort)}`],
    });
    const env = JSON.parse(await call('env', {})) as Record<string, string>;
    expect(env.HTTPS_PROXY).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(env.NO_PROXY).toBe('');
    const from = t.events.length;
    const plain = await call('http_get', { url: `http://127.0.0.1:${String(webPort)}/hello` });
    expect(plain).toMatch(/^HTTP\/1\.1 200/);
    expect(plain).toContain('hello from the host');
    const tunnel = await call('tunnel', { host: '127.0.0.1', port: webPort });
    expect(tunnel).toMatch(/^HTTP\/1\.1 200/);
    expect(tunnel).toContain('hello from the host');
    expect(questionsSince(from)).toBe(0);
  });

  it("routes Node's own fetch through the proxy (Node before 24 ignores the proxy variables by itself)", async () => {
    const from = t.events.length;
    const allowed = await call('fetch_url', { url: `http://127.0.0.1:${String(webPort)}/hello` });
    expect(allowed).toBe('200 hello from the host');
    // And through the same rules: a loopback port that was not granted is refused by the proxy.
    const refused = await call('fetch_url', { url: `http://127.0.0.1:${String(canaryPort)}/` });
    expect(refused).not.toMatch(/^200/);
    expect(canaryConnections).toBe(0);
    expect(questionsSince(from)).toBe(0);
  });

  it('cannot bypass the proxy: a direct connection has no network to go to', async () => {
    expect(await call('direct', { host: '127.0.0.1', port: webPort })).toMatch(/^blocked/);
    expect(await call('direct', { host: '127.0.0.1', port: canaryPort })).toMatch(/^blocked/);
    expect(canaryConnections).toBe(0);
    expect(await warnings()).toContain(`Sandbox blocked: connect to 127.0.0.1:${String(webPort)}`);
  });

  it("cannot reach another server's proxy (whose hosts differ): only its own is in its sandbox", async () => {
    await start(t.api, 'other');
    const env = JSON.parse(await call('env', {})) as Record<string, string>;
    const own = env.MCP_HOST_PROXY_SOCKET ?? '';
    expect(await call('unix', { path: own })).toBe('ALLOWED');
    const folders = readdirSync(join(dataDir, NETWORK_FOLDER_NAME)).map((f) =>
      join(dataDir, NETWORK_FOLDER_NAME, f),
    );
    const others = folders.filter((folder) => !own.startsWith(`${folder}/`));
    expect(others).toHaveLength(1);
    for (const folder of others) {
      const socket = join(folder, 'proxy.sock');
      expect(existsSync(socket)).toBe(true);
      expect(await call('unix', { path: socket })).toMatch(/^blocked/);
    }
    expect(canaryConnections).toBe(0);
    // Its proxy goes with it.
    value(await t.api.stopServer({ name: 'other' }));
    for (const folder of others) expect(existsSync(folder)).toBe(false);
  });

  it('asks about an undeclared host; "deny" gives a 403, is reported and remembered, and the server keeps working', async () => {
    const { request, text } = await callAnswering(
      'tunnel',
      { host: 'undeclared.example.com', port: 443 },
      'deny',
    );
    expect(request).toMatchObject({
      kind: 'network',
      server: 'net',
      prompt: {
        host: 'undeclared.example.com',
        port: 443,
        via: 'connect',
        alwaysEntry: 'undeclared.example.com',
      },
    });
    expect(text).toMatch(/^HTTP\/1\.1 403/);
    expect(text).toContain('undeclared.example.com:443: you denied it');
    expect(await warnings()).toContain(
      'Sandbox blocked: connect to undeclared.example.com:443 (you denied it)',
    );
    const view = value(await t.api.listServers({})).find((s) => s.name === 'net');
    expect(view?.status).toBe('connected');
    expect(view?.sandbox?.blocked).toContain('connect to undeclared.example.com:443');
    // Remembered: the next attempt is refused without a question.
    const from = t.events.length;
    expect(await call('tunnel', { host: 'undeclared.example.com', port: 443 })).toMatch(/^HTTP\/1\.1 403/);
    expect(questionsSince(from)).toBe(0);
    expect(await call('http_get', { url: `http://127.0.0.1:${String(webPort)}/` })).toContain(
      'hello from the host',
    );
  });

  it('"always" writes the host into the server\'s allowHosts and is not asked again', async () => {
    const { text } = await callAnswering('http_get', { url: 'http://always.example.invalid/' }, 'always');
    // Allowed: the proxy looked the name up (this machine has no such name), so not a 403.
    expect(text).not.toMatch(/^HTTP\/1\.1 403/);
    const written = JSON.parse(readFileSync(t.configPath, 'utf8')) as {
      mcpServers: Record<string, { sandbox?: { allowHosts?: string[] } }>;
    };
    expect(written.mcpServers.net?.sandbox?.allowHosts).toEqual([
      `127.0.0.1:${String(webPort)}`,
      'always.example.invalid',
    ]);
    const from = t.events.length;
    await call('http_get', { url: 'http://always.example.invalid/again' });
    expect(questionsSince(from)).toBe(0);
    // The server was not restarted for it.
    const view = value(await t.api.listServers({})).find((s) => s.name === 'net');
    expect(view?.status).toBe('connected');
  });

  it('records every network decision in the audit trail', async () => {
    const audit = value(await t.api.listAudit({}));
    const network = audit.filter((e) => e.decision.startsWith('network_')).map((e) => [e.tool, e.decision]);
    expect(network).toContainEqual(['undeclared.example.com:443', 'network_deny']);
    expect(network).toContainEqual(['always.example.invalid:80', 'network_always_allow']);
  });

  it('denies a loopback port that was not granted, without asking', async () => {
    const from = t.events.length;
    const text = await call('tunnel', { host: '127.0.0.1', port: canaryPort });
    expect(text).toMatch(/^HTTP\/1\.1 403/);
    expect(text).toContain('loopback and private addresses are denied');
    expect(await call('tunnel', { host: 'localhost', port: webPort })).toMatch(/^HTTP\/1\.1 403/);
    expect(questionsSince(from)).toBe(0);
    expect(canaryConnections).toBe(0);
    expect(await warnings()).toContain(
      `Sandbox blocked: connect to localhost:${String(webPort)} (loopback and private addresses are denied unless allowed exactly)`,
    );
  });

  it('denies a name that resolves to a loopback address even once allowed (DNS rebinding)', async (context) => {
    const name = hostname();
    const resolved = await lookup(name).catch(() => undefined);
    if (resolved === undefined || !isPrivateAddress(resolved.address)) {
      context.skip();
      return;
    }
    const { text } = await callAnswering('tunnel', { host: name, port: canaryPort }, 'allow-once');
    expect(text).toMatch(/^HTTP\/1\.1 403/);
    expect(text).toContain(`resolves to the private address ${resolved.address}`);
    expect(canaryConnections).toBe(0);
  });
});

describe('the network of a sandboxed server started from the command line', () => {
  it('denies hosts it was not allowed with one line, as no one can be asked', async () => {
    const cli = await createTestHost(
      { net: { ...fixtureServer('sandbox-net-prober.mjs'), env: { HOME: home } } },
      {
        interactive: false,
        platform: new NodePlatform(join(root, 'cli-data'), undefined, { keychain: null }),
      },
    );
    try {
      await start(cli.api, 'net');
      const result = value(
        await cli.api.callTool({
          server: 'net',
          tool: 'tunnel',
          argumentsJson: JSON.stringify({ host: 'undeclared.example.com', port: 443 }),
        }),
      );
      const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      expect(text).toMatch(/^HTTP\/1\.1 403/);
      expect(text).toContain('no one can be asked here (command line): add the host to sandbox.allowHosts');
      expect(cli.events.filter((e) => e.event === 'consentRequested')).toEqual([]);
    } finally {
      await cli.dispose();
    }
  });
});
