import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerTools } from '../../electron/host/chat/tool-offer.js';
import { DEFAULT_TOOL_SEARCH } from '../../shared/model/settings.js';
import type { ConsentRequest } from '../../shared/model/consent.js';
import { createTestHost, start, value, waitForEvent } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { fixtureServer, tempDir } from '../helpers/servers.js';
import { RecordingPlatform } from '../helpers/recording-platform.js';

/** MCP Apps against our v2-SDK fixture server (test/fixtures/servers/apps-server.mjs). */

const SANDBOX = 'http://127.0.0.1:1';
const PAGE = 'http://127.0.0.1:2';
let t: TestHost;
let platform: RecordingPlatform;

beforeAll(async () => {
  platform = new RecordingPlatform(tempDir());
  t = await createTestHost(
    { apps: fixtureServer('apps-server.mjs'), other: fixtureServer('apps-server.mjs', '--other') },
    { platform },
  );
  await start(t.api, 'apps');
  await start(t.api, 'other');
}, 60_000);

afterAll(async () => {
  await t.dispose();
});

const chat = { kind: 'chat' as const, conversationId: 'conv-1' };

/** Answers the next consent request (one already raised counts) and returns it. */
async function answerNext(
  kind: ConsentRequest['kind'],
  answer: unknown,
  from: number,
): Promise<ConsentRequest> {
  const request = await waitForEvent(
    t,
    (event, payload) =>
      event === 'consentRequested' && (payload as ConsentRequest).kind === kind
        ? (payload as ConsentRequest)
        : undefined,
    `${kind} consent`,
    from,
  );
  value(await t.api.answerConsent({ id: request.id, answer }));
  return request;
}

describe('MCP Apps in the host core', () => {
  it('declares the UI extension, which the server sees', async () => {
    const result = value(
      await t.api.callTool({ server: 'apps', tool: 'ui-capability', argumentsJson: '{}' }),
    );
    const first = result.content[0];
    // A 2026-07-28 connection: its requests also name the Tasks extension (docs/tasks.md).
    expect(first?.type === 'text' ? JSON.parse(first.text) : null).toEqual({
      'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
      'io.modelcontextprotocol/tasks': {},
    });
  });

  it('offers Claude only tools whose visibility includes "model"', async () => {
    const servers = value(await t.api.listServers({}));
    const names = offerTools(servers, {
      settings: { ...DEFAULT_TOOL_SEARCH, mode: 'off' },
      pinned: [],
    }).tools.map((tool) => tool.name);
    expect(names).toContain('apps__show-counter');
    expect(names).toContain('apps__model-only');
    expect(names).not.toContain('apps__increment');
    const apps = servers.find((s) => s.name === 'apps');
    expect(apps?.tools.find((tool) => tool.name === 'increment')?._meta?.ui?.visibility).toEqual(['app']);
  });

  it('refuses to open a view before a shell serves the sandbox', async () => {
    const refused = await t.api.openAppView({ server: 'apps', tool: 'show-counter', origin: chat });
    expect(refused.ok).toBe(false);
    t.host.apps.bindSandbox({ origin: SANDBOX, hostOrigins: [PAGE], reports: true });
  });

  it('prepares a view: the HTML, the default CSP on its proxy page, no permissions', async () => {
    const view = value(await t.api.openAppView({ server: 'apps', tool: 'show-counter', origin: chat }));
    expect(view.html).toContain('Counter app');
    expect(view.resourceUri).toBe('ui://apps/counter.html');
    expect(view.proxyUrl).toBe(`${SANDBOX}/view/${view.viewId}`);
    expect(view.prefersBorder).toBe(true);
    const page = t.host.apps.respond({ method: 'GET', path: `/view/${view.viewId}` });
    expect(page.status).toBe(200);
    const csp = page.headers['Content-Security-Policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("frame-src 'none'");
    expect(csp).toContain(`frame-ancestors ${PAGE}`);
    expect(csp).toContain(`report-uri ${SANDBOX}/csp-report/${view.viewId}`);
    expect(page.headers['Permissions-Policy']).toBe(
      'camera=(), microphone=(), geolocation=(), clipboard-write=()',
    );
    expect(page.body).toContain('/proxy.js');
    expect(page.body).toContain(`data-host-origins="${PAGE}"`);
    // Unknown views and paths get nothing.
    expect(t.host.apps.respond({ method: 'GET', path: '/view/AAAAAAAAAAAAAAAAAAAAAAAA' }).status).toBe(404);
    expect(t.host.apps.respond({ method: 'GET', path: '/../etc/passwd' }).status).toBe(404);
    expect(t.host.apps.respond({ method: 'GET', path: '/proxy.js' }).body).toContain(
      "RESERVED + 'proxy-ready'",
    );
  });

  it('accepts only well-formed declared origins and logs the refused ones', async () => {
    const view = value(await t.api.openAppView({ server: 'apps', tool: 'hostile', origin: chat }));
    expect(view.csp.connectDomains).toEqual(['https://api.example.com']);
    expect(view.refusedCsp).toHaveLength(3);
    const csp = t.host.apps.respond({ method: 'GET', path: `/view/${view.viewId}` }).headers[
      'Content-Security-Policy'
    ];
    expect(csp).toContain('connect-src https://api.example.com;');
    expect(csp).not.toContain('unsafe-eval');
    const logs = value(await t.api.getServerLogs({ name: 'apps' })).entries.map((e) => e.text);
    expect(logs.some((line) => line.includes('refused') && line.includes("'unsafe-eval'"))).toBe(true);
    // A violation report from the browser becomes a line in the server's log.
    t.host.apps.respond({
      method: 'POST',
      path: `/csp-report/${view.viewId}`,
      body: JSON.stringify({
        'csp-report': { 'effective-directive': 'connect-src', 'blocked-uri': 'https://evil.example/x' },
      }),
    });
    await expect
      .poll(async () =>
        value(await t.api.getServerLogs({ name: 'apps' }))
          .entries.map((e) => e.text)
          .join('\n'),
      )
      .toContain('connect-src https://evil.example/x');
  });

  it.each([
    ['missing-ui', /reading ui:\/\/apps\/missing.html failed/],
    ['not-html', /not an MCP App \(mime type "text\/plain"\)/],
    ['too-big', /6\.0 MB, over the 5\.0 MB limit/],
  ])('says in one line why the app of %s cannot be shown', async (tool, reason) => {
    const result = await t.api.openAppView({ server: 'apps', tool, origin: chat });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(reason);
  });

  it('lets an app call an app-visible tool of its server after consent that says the app asks', async () => {
    const view = value(await t.api.openAppView({ server: 'apps', tool: 'show-counter', origin: chat }));
    const from = t.events.length;
    const pending = t.api.appCallTool({ viewId: view.viewId, name: 'increment', arguments: { value: 41 } });
    const request = await answerNext('tool', { decision: 'allow-once' }, from);
    expect(request.kind === 'tool' ? request.prompt.requestedByApp : undefined).toEqual({
      resourceUri: 'ui://apps/counter.html',
    });
    const result = value(await pending);
    expect(result.structuredContent).toEqual({ value: 42 });
    expect(result.content).toEqual([{ type: 'text', text: '42' }]);
    // Declined: the app gets an error.
    const from2 = t.events.length;
    const declined = t.api.appCallTool({ viewId: view.viewId, name: 'increment', arguments: { value: 1 } });
    await answerNext('tool', { decision: 'deny' }, from2);
    expect((await declined).ok).toBe(false);
  });

  it('refuses model-only tools, other servers and closed views, and logs each refusal', async () => {
    const view = value(await t.api.openAppView({ server: 'apps', tool: 'hostile', origin: chat }));
    const modelOnly = await t.api.appCallTool({ viewId: view.viewId, name: 'model-only' });
    expect(modelOnly.ok ? 'ran' : modelOnly.error.code).toBe('denied');
    const otherTool = await t.api.appCallTool({ viewId: view.viewId, name: 'other-tool' });
    expect(otherTool.ok ? 'ran' : otherTool.error.code).toBe('not_found');
    const otherResource = await t.api.appReadResource({ viewId: view.viewId, uri: 'secret://other/note' });
    expect(otherResource.ok).toBe(false);
    const own = value(await t.api.appReadResource({ viewId: view.viewId, uri: 'apps://note' }));
    expect(own.contents[0]?.text).toBe('a note from the apps server');
    const logs = value(await t.api.getServerLogs({ name: 'apps' })).entries.map((e) => e.text);
    expect(
      logs.some((line) => line.includes('"model-only"') && line.includes('does not include "app"')),
    ).toBe(true);
    value(await t.api.closeAppView({ viewId: view.viewId }));
    const closed = await t.api.appCallTool({
      viewId: view.viewId,
      name: 'increment',
      arguments: { value: 1 },
    });
    expect(closed.ok ? 'ran' : closed.error.message).toBe('This app view is closed');
  });

  it('opens a web link only after consent, and never another scheme', async () => {
    const view = value(await t.api.openAppView({ server: 'apps', tool: 'show-counter', origin: chat }));
    const script = await t.api.appOpenLink({ viewId: view.viewId, url: 'javascript:alert(1)' });
    expect(script.ok ? 'opened' : script.error.code).toBe('invalid_params');
    const from = t.events.length;
    const declined = t.api.appOpenLink({ viewId: view.viewId, url: 'https://example.com/docs' });
    const request = await answerNext('elicitationUrl', { action: 'decline' }, from);
    expect(request.kind === 'elicitationUrl' ? request.prompt.url : '').toBe('https://example.com/docs');
    expect((await declined).ok).toBe(false);
    const from2 = t.events.length;
    const accepted = t.api.appOpenLink({ viewId: view.viewId, url: 'https://example.com/docs' });
    await answerNext('elicitationUrl', { action: 'accept' }, from2);
    value(await accepted);
    expect(platform.opened).toEqual(['https://example.com/docs']);
  });

  it('grants only declared permissions and writes app log lines to the server log', async () => {
    const view = value(
      await t.api.openAppView({ server: 'apps', tool: 'show-counter', origin: { kind: 'panel' } }),
    );
    const grant = await t.api.grantAppPermissions({ viewId: view.viewId, permissions: ['camera'] });
    expect(grant.ok ? 'granted' : grant.error.code).toBe('denied');
    value(await t.api.appLog({ viewId: view.viewId, level: 'info', data: 'hello from the app' }));
    const entry = value(await t.api.getServerLogs({ name: 'apps' })).entries.find((e) =>
      e.text.includes('hello from the app'),
    );
    expect(entry?.logger).toBe('app ui://apps/counter.html');
    // A panel view has no conversation for model context.
    const context = await t.api.appUpdateModelContext({
      viewId: view.viewId,
      content: [{ type: 'text', text: 'x' }],
    });
    expect(context.ok).toBe(false);
  });
});
