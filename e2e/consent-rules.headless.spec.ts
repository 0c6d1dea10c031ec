import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures/chat.js';
import { consent, messages, sections, send, setUpClaude } from './flows/chat.js';
import { openConnectedServer } from './flows/server-everything.js';
import { lightAndDark } from './flows/pictures.js';

/** Another program that also offers a tool named "echo". */
const otherEchoServer = fileURLToPath(
  new URL('../test/fixtures/servers/annotations-server.mjs', import.meta.url),
);

/** The latest tool card of this tool. */
const card = (page: Page, tool: string) =>
  messages(page)
    .getByRole('button', { name: new RegExp(`${tool} on everything`) })
    .last();

// Every test starts with a chat set up against the fake Messages API.
test.beforeEach(async ({ app, fakeApi, page }) => {
  await page.goto(app.url);
  await setUpClaude(page, fakeApi.url);
});

/** Sends a tool call, sees the dialog ask, denies it. */
async function askedAndDenied(page: Page, text: string, tool: string): Promise<void> {
  await send(page, text);
  await expect(consent(page)).toBeVisible();
  await consent(page).getByRole('button', { name: 'Deny' }).click();
  await expect(card(page, tool)).toContainText('Denied');
}

/** Sends a tool call and waits for its card to finish without any dialog. */
async function runsWithoutAsking(page: Page, text: string, tool: string, badge: string): Promise<void> {
  const before = await messages(page)
    .getByRole('button', { name: new RegExp(`${tool} on everything`) })
    .count();
  await send(page, text);
  await expect(messages(page).getByRole('button', { name: new RegExp(`${tool} on everything`) })).toHaveCount(
    before + 1,
  );
  await expect(card(page, tool)).toContainText('Done');
  await expect(card(page, tool)).toContainText(`auto-allowed · ${badge}`);
  await expect(consent(page)).toBeHidden();
}

test('"Allow for this conversation": not asked again there, asked in a new one; the card keeps its badge after a reload', async ({
  page,
}, testInfo) => {
  await send(page, 'call echo {"message":"one"}');
  const dialog = consent(page);
  await expect(dialog).toBeVisible();
  const remember = dialog.getByRole('group', { name: 'Remember this choice' });
  await expect(remember.getByRole('radio', { name: 'Only this time' })).toBeChecked();
  await expect(remember.getByRole('radio')).toHaveCount(5);
  await expect(remember).toContainText('trusting the server’s claim');
  await expect(dialog).toContainText('The server runs');
  await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused();
  await lightAndDark(page, testInfo, 'consent-choices');

  await remember.getByRole('radio', { name: /rest of this conversation/ }).check();
  await dialog.getByRole('button', { name: 'Allow for this conversation' }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, 'echo')).toContainText('Done');

  await runsWithoutAsking(page, 'call echo {"message":"two"}', 'echo', 'allowed for this conversation');

  // After a reload the stored result still says which rule let the call run.
  await page.reload();
  await page
    .getByRole('navigation', { name: 'Conversations' })
    .getByRole('button', { name: /call echo/ })
    .first()
    .click();
  await expect(card(page, 'echo')).toContainText('auto-allowed · allowed for this conversation');
  await lightAndDark(page, testInfo, 'card-after-reload');

  // A new conversation asks again.
  await page.getByRole('button', { name: 'New chat' }).click();
  await askedAndDenied(page, 'call echo {"message":"three"}', 'echo');
});

test('"Trust this server": a badge on the server, its other tools run without asking, revoked in one click', async ({
  page,
}, testInfo) => {
  await send(page, 'call echo {"message":"trust"}');
  const dialog = consent(page);
  await dialog.getByRole('radio', { name: /Trust everything/ }).check();
  await expect(dialog).toContainText('Including tools that change or delete data');
  await dialog.getByRole('button', { name: 'Trust server and allow' }).click();
  await expect(card(page, 'echo')).toContainText('Done');
  await runsWithoutAsking(page, 'call get-sum {"a":2,"b":3}', 'get-sum', 'trusted server');

  await openConnectedServer(page, 'everything');
  const item = page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /everything/ });
  await expect(item).toContainText('Trusted');
  const main = page.getByRole('main');
  const panel = main.getByRole('region', { name: 'Consent' });
  await expect(panel).toContainText('Claude runs all of this server’s tools without asking');
  await lightAndDark(page, testInfo, 'trusted-server');

  await panel.getByRole('button', { name: 'Revoke trust' }).click();
  await expect(panel).toContainText('Not trusted');
  await expect(item).not.toContainText('Trusted');

  await sections(page).getByRole('button', { name: 'Chat' }).click();
  await askedAndDenied(page, 'call get-sum {"a":2,"b":3}', 'get-sum');
});

test('read-only opt-in: tools the server marks read-only run without asking; one without the mark still asks', async ({
  page,
}) => {
  await openConnectedServer(page, 'everything');
  const panel = page.getByRole('main').getByRole('region', { name: 'Consent' });
  const optIn = panel.getByRole('checkbox', { name: /marks read-only without asking/ });
  await expect(panel).toContainText('This trusts the server’s own claim');
  await optIn.check();
  await expect(optIn).toBeChecked();

  await sections(page).getByRole('button', { name: 'Chat' }).click();
  // echo says readOnlyHint: true.
  await runsWithoutAsking(page, 'call echo {"message":"ro"}', 'echo', 'read-only opt-in');
  // toggle-simulated-logging says readOnlyHint: false: asked, and not offered the read-only choice.
  await send(page, 'call toggle-simulated-logging {}');
  const dialog = consent(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('radio')).toHaveCount(4);
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(card(page, 'toggle-simulated-logging')).toContainText('Denied');
});

test('a different program added under the same name is asked about again; Settings lists the rules and what they are bound to', async ({
  page,
}, testInfo) => {
  await send(page, 'call echo {"message":"always"}');
  await consent(page).getByRole('radio', { name: 'Always allow echo on everything' }).check();
  await consent(page).getByRole('button', { name: 'Always allow' }).click();
  await expect(card(page, 'echo')).toContainText('Done');
  await runsWithoutAsking(page, 'call echo {"message":"again"}', 'echo', 'always allowed');

  // Remove the server and add another program under the same name.
  await openConnectedServer(page, 'everything');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: 'Remove' }).click();
  await page
    .getByRole('alertdialog', { name: /Remove “everything”/ })
    .getByRole('button', { name: 'Remove server' })
    .click();
  await page.getByRole('button', { name: 'Add server' }).click();
  const add = page.getByRole('dialog', { name: 'Add server' });
  await add.getByLabel('Name').fill('everything');
  await add.getByLabel('Command').fill(process.execPath);
  await add.getByLabel('Arguments').fill(otherEchoServer);
  await add.getByRole('button', { name: 'Add and connect' }).click();
  await expect(add).toBeHidden();
  await expect(main.getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });

  await sections(page).getByRole('button', { name: 'Chat' }).click();
  await send(page, 'call echo {"message":"who are you"}');
  const dialog = consent(page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('annotations-server.mjs');
  await dialog.getByRole('radio', { name: /rest of this conversation/ }).check();
  await dialog.getByRole('button', { name: 'Allow for this conversation' }).click();
  await expect(messages(page)).toContainText('The tool said: fixture echo: who are you');

  // Settings: grouped by server, with scope, identity and whether each rule applies now.
  await sections(page).getByRole('button', { name: 'Settings' }).click();
  const rules = page.getByRole('list', { name: 'Rules for everything' });
  await expect(rules.getByRole('listitem')).toHaveCount(2);
  const old = rules.getByRole('listitem').filter({ hasText: 'This tool, always' });
  await expect(old).toContainText('Not in effect: this server now runs something else');
  await expect(old).toContainText('server-everything');
  const current = rules.getByRole('listitem').filter({ hasText: 'This tool, in one conversation' });
  await expect(current).toContainText('annotations-server.mjs');
  await expect(current).not.toContainText('Not in effect');
  const audit = page.getByRole('table', { name: 'Audit trail' });
  await expect(audit).toContainText('Allowed for the conversation');
  await expect(audit).toContainText('This tool, always');
  await page.getByRole('heading', { name: 'Consent rules' }).scrollIntoViewIfNeeded();
  await lightAndDark(page, testInfo, 'settings-rules');

  await old.getByRole('button', { name: /Revoke/ }).click();
  await expect(rules.getByRole('listitem')).toHaveCount(1);
});

test('a call made from the Servers view is in the audit trail, marked as made by you', async ({ page }) => {
  await openConnectedServer(page, 'everything');
  const main = page.getByRole('main');
  await main
    .getByRole('list', { name: 'Tools' })
    .getByRole('button', { name: /^echo\b/ })
    .click();
  await main.getByLabel('Arguments (JSON)').fill('{"message": "by hand"}');
  await main.getByRole('button', { name: 'Call tool' }).click();
  await expect(main.getByRole('region', { name: 'Result' })).toContainText('Echo: by hand');

  await sections(page).getByRole('button', { name: 'Settings' }).click();
  const row = page.getByRole('table', { name: 'Audit trail' }).getByRole('row').filter({ hasText: 'echo' });
  await expect(row).toContainText('Called by you');
  await expect(row).toContainText('You, from the Servers view');
});

test('a consent request that arrives while the window is not focused changes the page title', async ({
  page,
  context,
  fakeApi,
}) => {
  await expect(page).toHaveTitle('MCP Host');
  // Playwright makes every page look focused; let this one lose the focus for real.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
  // Claude writes for a few seconds before it asks for the tool: time to switch windows.
  const reply = {
    type: 'tool_use',
    toolSuffix: 'echo',
    input: { message: 'while away' },
    text: 'Let me look that up for you; this will take a few seconds to get right.',
    chunk: 3,
    delayMs: 200,
  };
  const queued = await fetch(`${fakeApi.url}/_script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([reply]),
  });
  expect(queued.ok).toBe(true);
  await send(page, 'look something up');
  await expect(page.getByRole('article', { name: 'Claude is writing' })).toBeVisible();
  const other = await context.newPage();
  await other.goto('about:blank');
  await other.bringToFront();
  // A string, so this Node-typed file needs no DOM types.
  await expect.poll(() => page.evaluate('document.hasFocus()')).toBe(false);
  // The request had not arrived yet when the window lost the focus.
  expect(await consent(page).count()).toBe(0);
  await expect(page).toHaveTitle('(1) Approval needed · MCP Host');

  // Back in front: the title is the app's own again, and the dialog is there.
  await page.bringToFront();
  await expect(page).toHaveTitle('MCP Host');
  await expect(consent(page)).toBeVisible();
  await consent(page).getByRole('button', { name: 'Deny' }).click();
  await expect(consent(page)).toBeHidden();
});
