import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from './fixtures/chat.js';
import { consent, messages, send, setUpClaude } from './flows/chat.js';
import { openConnectedServer } from './flows/server-everything.js';
import { lightAndDark } from './flows/pictures.js';

const prober = fileURLToPath(new URL('../test/fixtures/servers/sandbox-prober.mjs', import.meta.url));

// A fake home with a canary key, under /var/tmp: each sandboxed server gets a private /tmp. Made by the
// worker that runs the tests (the path is this module's own), removed after them.
const root = join('/var/tmp', `mcp-e2e-sandbox-settings-${randomUUID()}`);
const home = join(root, 'home');
const env = {
  HOME: home,
  PROBE_APP_FILE: '/nonexistent/app-file',
  PROBE_OUTSIDE: join(root, 'escape.txt'),
  PROBE_PORT: '9',
};

test.beforeAll(() => {
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'CANARY-E2E-KEY');
});

test.afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

test.use({
  initialConfig: { mcpServers: { boxed: { command: process.execPath, args: [prober], env } } },
  extraEnv: { HOME: home },
});

/** The `sandbox` key of the server's entry, as the file holds it now. */
const stored = (configPath: string): unknown =>
  (JSON.parse(readFileSync(configPath, 'utf8')) as { mcpServers: Record<string, { sandbox?: unknown }> })
    .mcpServers.boxed?.sandbox;

test('the Settings tab adds and removes folders and hosts, saves them, and refuses a malformed host naming the key', async ({
  app,
  page,
}, testInfo) => {
  await page.goto(app.url);
  await openConnectedServer(page, 'boxed');
  const main = page.getByRole('main');
  await main.getByRole('tab', { name: 'Settings' }).click();

  // A folder, added with Enter.
  const read = main.getByRole('textbox', { name: 'Add to May also read' });
  await read.fill('~/projects');
  await read.press('Enter');
  await expect(main.getByRole('list', { name: 'May also read' }).getByRole('listitem')).toHaveText([
    /~\/projects/,
  ]);
  await expect(read).toHaveValue('');
  await expect.poll(() => stored(app.configPath)).toEqual({ allowRead: ['~/projects'] });

  // A host, added with the button; the policy in effect follows once the server restarted.
  const hosts = main.getByRole('textbox', { name: 'Add to May connect to' });
  await hosts.fill('api.example.com');
  const hostRow = main
    .locator('.sandbox-list')
    .filter({ has: page.getByRole('textbox', { name: 'Add to May connect to' }) });
  await hostRow.getByRole('button', { name: 'Add' }).click();
  await expect(main.getByRole('list', { name: 'May connect to' })).toContainText('api.example.com');
  await expect
    .poll(() => stored(app.configPath))
    .toEqual({
      allowRead: ['~/projects'],
      allowHosts: ['api.example.com'],
    });
  await expect(hostRow.locator('.sandbox-list__effective')).toContainText('api.example.com');

  // A malformed host: refused in place, naming the key; nothing written.
  await expect(hostRow.getByRole('button', { name: 'Add' })).toBeEnabled();
  await hosts.fill('foo bar');
  await hosts.press('Enter');
  await expect(hostRow.getByRole('alert')).toHaveText(
    'allowHosts: "foo bar" is not a host name (write names like api.example.com or *.example.com)',
  );
  await expect(hosts).toHaveAttribute('aria-invalid', 'true');
  expect(stored(app.configPath)).toEqual({ allowRead: ['~/projects'], allowHosts: ['api.example.com'] });
  await hostRow.scrollIntoViewIfNeeded();
  await lightAndDark(page, testInfo, 'sandbox-settings', { fullPage: true });

  // Removed by its own labelled button.
  await main.getByRole('button', { name: 'Remove ~/projects from May also read' }).click();
  await expect.poll(() => stored(app.configPath)).toEqual({ allowHosts: ['api.example.com'] });
  await expect(main.getByRole('list', { name: 'May also read' })).toBeHidden();
});

test('a tool call the sandbox broke says so on its card and opens the server’s Settings', async ({
  app,
  fakeApi,
  page,
}, testInfo) => {
  await page.goto(app.url);
  await setUpClaude(page, fakeApi.url, { servers: ['boxed'] });
  await send(page, 'call read_canary {}');
  await consent(page).getByRole('button', { name: 'Allow once' }).click();
  const card = messages(page).locator('.tool-card').filter({ hasText: 'read_canary' }).last();
  await expect(card).toContainText('Error');
  const note = card.getByRole('note');
  await expect(note).toContainText('Blocked by the sandbox: read ~/.ssh/id_ed25519');
  await expect(note).toContainText('change in the server’s Settings');
  await lightAndDark(page, testInfo, 'sandbox-blocked-card', { fullPage: true });

  await note.getByRole('button', { name: 'Open Settings of boxed' }).click();
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'boxed' })).toBeVisible();
  await expect(main.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
  await expect(main.getByRole('textbox', { name: 'Add to May also read' })).toBeVisible();
});
