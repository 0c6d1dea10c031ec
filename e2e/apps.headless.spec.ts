import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FrameLocator, Page } from '@playwright/test';
import { test, expect } from './fixtures/chat.js';
import { composer, messages, send, setUpClaude } from './flows/chat.js';
import { openConnectedServer } from './flows/server-everything.js';

/**
 * MCP Apps in the headless shell: a published app server from the npm
 * registry (@modelcontextprotocol/server-basic-react, the ext-apps example
 * built on the official App SDK) and our fixture (test/fixtures/servers/
 * apps-server.mjs) with a counter app, a hostile app and broken resources.
 */
const require = createRequire(import.meta.url);
const basicReact = join(dirname(require.resolve('@modelcontextprotocol/server-basic-react')), 'index.js');
const appsFixture = 'test/fixtures/servers/apps-server.mjs';

test.use({
  initialConfig: {
    mcpServers: {
      basic: { command: process.execPath, args: [basicReact, '--stdio'] },
      apps: { command: process.execPath, args: [appsFixture] },
      other: { command: process.execPath, args: [appsFixture, '--other'] },
    },
  },
});

const claudeConsent = (page: Page) => page.getByRole('dialog', { name: /Allow Claude to run/ });
const appConsent = (page: Page) => page.getByRole('dialog', { name: /Allow the app to run/ });
/** The app inside its sandbox proxy (two frames deep). */
const appIn = (page: Page, resourceUri: string): FrameLocator =>
  page.locator(`iframe[title^="App ${resourceUri}"]`).last().contentFrame().frameLocator('iframe');

async function requestsTo(baseUrl: string): Promise<{ path: string; body: unknown }[]> {
  const response = await fetch(`${baseUrl}/_requests`);
  return (await response.json()) as { path: string; body: unknown }[];
}

test('a published MCP App (server-basic-react) in the chat: renders, calls its server through consent, comes back from history', async ({
  app,
  fakeApi,
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(app.url);
  await setUpClaude(page, fakeApi.url, { servers: ['basic', 'apps', 'other'] });

  await send(page, 'call get-time {}');
  await claudeConsent(page).getByRole('button', { name: 'Allow once' }).click();
  await expect(messages(page)).toContainText('The tool said:');
  const view = appIn(page, 'ui://get-time/mcp-app.html');
  const time = view.locator('code, strong, span', { hasText: /^\d{4}-\d\d-\d\dT/ }).first();
  await expect(time).toBeVisible({ timeout: 20_000 });
  const firstTime = await time.innerText();
  await page.screenshot({ path: testInfo.outputPath('app-card-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(400);
  await page.screenshot({ path: testInfo.outputPath('app-card-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // An interaction inside the app calls the server's tool, through the same consent, saying the app asks.
  await view.getByRole('button', { name: 'Get Server Time' }).click();
  const dialog = appConsent(page);
  await expect(dialog).toContainText('asked by its app ui://get-time/mcp-app.html');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(time).not.toHaveText(firstTime, { timeout: 10_000 });
  const secondTime = await time.innerText();

  // Full screen over the window, and back with Esc.
  await page.getByRole('button', { name: 'Full screen' }).last().click();
  await expect(page.getByRole('dialog', { name: 'App of get-time' })).toBeVisible();
  await page.waitForTimeout(300);
  await page.screenshot({ path: testInfo.outputPath('app-fullscreen-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(300);
  await page.screenshot({ path: testInfo.outputPath('app-fullscreen-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'App of get-time' })).toBeHidden();

  // Reopening the conversation shows the app again from the stored result: no model request, no tool run.
  const before = (await requestsTo(fakeApi.url)).length;
  await page.reload();
  await page
    .getByRole('navigation', { name: 'Conversations' })
    .getByRole('button', { name: /get-time/ })
    .first()
    .click();
  await expect(time).toBeVisible({ timeout: 20_000 });
  await expect(time).toHaveText(firstTime);
  expect(secondTime).not.toBe(firstTime);
  expect((await requestsTo(fakeApi.url)).length).toBe(before);
  await expect(claudeConsent(page)).toBeHidden();
});

test('the counter app: app-only tool, message into the composer, link consent, model context, display mode', async ({
  app,
  fakeApi,
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(app.url);
  await setUpClaude(page, fakeApi.url, { servers: ['basic', 'apps', 'other'] });

  await send(page, 'call show-counter {"start": 5}');
  await claudeConsent(page).getByRole('button', { name: 'Allow once' }).click();
  const view = appIn(page, 'ui://apps/counter.html');
  await expect(view.locator('#value')).toHaveText('5', { timeout: 20_000 });
  await expect(view.locator('#input')).toHaveText('{"start":5}');
  await expect(view.locator('#status')).toContainText('Counter starts at 5 (call 1)');
  await expect(view.locator('#theme')).toHaveText('light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(view.locator('#theme')).toHaveText('dark');
  await page.screenshot({ path: testInfo.outputPath('counter-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // The app-only tool: Claude was never offered it; the app may call it after consent.
  const offered = (await requestsTo(fakeApi.url))
    .filter((r) => r.path === '/v1/messages')
    .flatMap((r) => ((r.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name));
  expect(offered).toContain('apps__show-counter');
  expect(offered).not.toContain('apps__increment');
  await view.getByRole('button', { name: 'Increment' }).click();
  await appConsent(page).getByRole('button', { name: 'Allow once' }).click();
  await expect(view.locator('#value')).toHaveText('6');
  await expect(appConsent(page)).toBeHidden();

  // ui/message lands in the message box for the person to review; nothing is sent.
  await view.getByRole('button', { name: 'Say hello' }).click();
  await expect(composer(page)).toHaveValue('The counter is at 6');
  await expect(page.getByText('The app put a message in the message box')).toBeVisible();

  // ui/open-link: the full URL is shown first; declining tells the app.
  await view.getByRole('button', { name: 'Open docs' }).click();
  const link = page.getByRole('dialog', { name: /asks you to open a link/ });
  await expect(link).toContainText('https://example.com/docs');
  await link.getByRole('button', { name: 'Decline' }).click();
  await expect(view.locator('#status')).toContainText('Link refused');
  // The app hears the answer before the dialog has left the page; a click into the frame
  // meanwhile would land on the dialog's backdrop (Playwright's hit test stops at the frame).
  await expect(link).toBeHidden();

  // The app asks for full screen; the host grants it and says so.
  await view.getByRole('button', { name: 'Full screen' }).click();
  await expect(page.getByRole('dialog', { name: 'App of show-counter' })).toBeVisible();
  await expect(view.locator('#status')).toHaveText('Display mode: fullscreen');
  await page.screenshot({ path: testInfo.outputPath('counter-fullscreen.png') });
  await page.getByRole('button', { name: 'Exit full screen' }).click();

  // The model context the app set after Increment goes with the next message, once.
  await composer(page).fill('What does it show?');
  await composer(page).press('Enter');
  await expect(messages(page)).toContainText('You said:');
  const last = (await requestsTo(fakeApi.url)).filter((r) => r.path === '/v1/messages').at(-1);
  expect(JSON.stringify(last?.body)).toContain('The counter shows 6');
});

test('a hostile app cannot escape: every attempt is blocked and logged, and the host keeps working', async ({
  app,
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const popups: string[] = [];
  page.context().on('page', (p) => popups.push(p.url()));
  await page.goto(app.url);
  await openConnectedServer(page, 'apps');
  await page.getByRole('tab', { name: /Tools/ }).click();
  await page.getByRole('button', { name: /^hostile/ }).click();
  await page.getByRole('button', { name: 'Call tool' }).click();
  const view = appIn(page, 'ui://apps/hostile.html');
  await expect(view.locator('#done')).toHaveText('ATTACKS DONE 20', { timeout: 30_000 });
  await expect(page.getByText('Not allowed for this app: connect: "*" refused')).toBeVisible();
  const hostileApp = page.locator('.tool-app').last();
  await hostileApp.scrollIntoViewIfNeeded();
  await hostileApp.screenshot({ path: testInfo.outputPath('hostile.png') });

  // Every attempt failed, as the app itself saw it.
  const lines = await view.locator('#out li').allInnerTexts();
  expect(lines.filter((l) => l.includes('LEAKED'))).toEqual([]);

  // The host page is untouched and responsive.
  expect(page.url()).toBe(app.home);
  expect(popups).toEqual([]);
  expect(dialogs).toEqual([]);
  await page.getByRole('tab', { name: 'Logs' }).click();
  const log = page.getByRole('main').getByRole('list', { name: /^Log lines/ });
  await expect(log).toContainText('ATTACK parent.document: blocked', { timeout: 15_000 });
  await expect(log).toContainText('ATTACK localStorage: blocked');
  await expect(log).toContainText('ATTACK fetch undeclared domain: blocked');
  await expect(log).toContainText('Refused tools/call of "model-only"');
  await expect(log).toContainText("Blocked by the app's Content-Security-Policy: connect-src");
  await expect(log).toContainText('messages: the app sends too many');
  await expect(log).toContainText('Ignored a malformed message');
  await expect(log).not.toContainText('LEAKED');
  // Still usable: another tool call goes through.
  await page.getByRole('tab', { name: /Tools/ }).click();
  await page.getByRole('button', { name: /^ui-capability/ }).click();
  await page.getByRole('button', { name: 'Call tool' }).click();
  await expect(page.getByRole('region', { name: 'Result' }).last()).toContainText(
    'text/html;profile=mcp-app',
  );
});

test('broken app resources show the text result with a one-line note; an app that never starts is closed', async ({
  app,
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(app.url);
  await openConnectedServer(page, 'apps');
  await page.getByRole('tab', { name: /Tools/ }).click();
  const notes: [string, RegExp][] = [
    ['missing-ui', /The app cannot be shown: reading ui:\/\/apps\/missing\.html failed/],
    ['not-html', /not an MCP App \(mime type "text\/plain"\)/],
    ['too-big', /over the 5\.0 MB limit/],
  ];
  for (const [tool, note] of notes) {
    await page.getByRole('button', { name: new RegExp(`^${tool}`) }).click();
    await page.getByRole('button', { name: 'Call tool' }).click();
    await expect(page.getByRole('region', { name: 'Result' }).last()).toContainText(`${tool} done`);
    await expect(page.getByText(note)).toBeVisible();
  }
  await page.getByRole('button', { name: /^never-init/ }).click();
  await page.getByRole('button', { name: 'Call tool' }).click();
  await expect(page.getByText('The app did not start within 15 s and was closed.')).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.locator('iframe[title^="App ui://apps/never-init.html"]')).toHaveCount(0);
});
