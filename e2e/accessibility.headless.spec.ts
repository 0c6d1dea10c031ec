import { writeFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { test, expect } from './fixtures/chat.js';
import { openConnectedServer, openServers } from './flows/server-everything.js';
import { chooseBundle } from './flows/bundles.js';
import {
  echoManifest,
  packBundle,
  selfSignedCertificate,
  signBundle,
  tamper,
} from '../test/helpers/bundles.js';
import { tempDir } from '../test/helpers/servers.js';
import { browseRegistry, installLinkFromCli } from './flows/registry.js';
import { spawnRegistry } from '../test/fixtures/registry/registry-process.js';

/**
 * axe-core (WCAG 2.1 A and AA, plus its best practices) on every screen and
 * dialog, in light and dark: each must report no violation. A new screen or
 * dialog gets a `check(page, …)` here.
 */

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** One line per violation: rule, impact, and the first elements it names. */
function describe(violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']): string[] {
  return violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'n/a'}): ${v.help} — ${v.nodes
        .slice(0, 6)
        .map((n) => n.target.join(' '))
        .join(' | ')}`,
  );
}

/** Runs axe on what is on screen now, in light and in dark, and expects no violation in either. */
async function check(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    // Colors change with a transition; axe measures contrast on what is drawn.
    await page.waitForTimeout(250);
    const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    found.push(...describe(results.violations).map((line) => `[${scheme}] ${line}`));
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  writeFileSync(testInfo.outputPath(`axe-${name}.txt`), `${found.join('\n') || 'no violations'}\n`);
  // Soft: every screen of a test is checked and reported, not only the first that fails.
  expect.soft(found, `axe violations on ${name}`).toEqual([]);
}

const sections = (page: Page) => page.getByRole('navigation', { name: 'Sections' });

/** Base URL first, then the key: the key is entered for the fake API's host. */
async function setUpClaude(page: Page, baseUrl: string): Promise<void> {
  await sections(page).getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('textbox', { name: 'Base URL' }).fill(baseUrl);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Base URL saved.')).toBeVisible();
  await page.getByRole('textbox', { name: 'API key' }).fill('sk-ant-e2e-key-000011112222wxyz');
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(page.getByText('sk-…wxyz')).toBeVisible();
}

async function callTool(page: Page, tool: string, args: object): Promise<void> {
  await openConnectedServer(page, 'everything');
  const main = page.getByRole('main');
  await main
    .getByRole('list', { name: 'Tools' })
    .getByRole('button', { name: new RegExp(`^${tool}(\\s|$)`) })
    .click();
  await main.getByLabel('Arguments (JSON)').fill(JSON.stringify(args));
  await main.getByRole('button', { name: 'Call tool' }).click();
}

test('the screens: first screen, a conversation, a server, its tabs, Settings', async ({
  app,
  fakeApi,
  page,
}, testInfo) => {
  await page.goto(app.url);
  await expect(page.getByRole('region', { name: 'Set up Claude' })).toBeVisible();
  await check(page, testInfo, 'first-screen');

  await openConnectedServer(page, 'everything');
  await check(page, testInfo, 'server-tools');
  const main = page.getByRole('main');
  await main.getByRole('list', { name: 'Tools' }).getByRole('button', { name: /^echo/ }).click();
  await check(page, testInfo, 'server-tool-selected');
  for (const tab of ['Resources', 'Prompts', 'Roots', 'Logs', 'Settings']) {
    await main.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
    await expect(main.getByRole('tabpanel')).toBeVisible();
    await check(page, testInfo, `server-${tab.toLowerCase()}`);
  }

  await setUpClaude(page, fakeApi.url);
  await check(page, testInfo, 'settings');
  await sections(page).getByRole('button', { name: 'Chat' }).click();
  await page.getByRole('textbox', { name: 'Message' }).fill('Show me\n\n| col | val |\n|---|---|\n| a | 1 |');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(page.getByRole('log', { name: 'Messages' }).getByRole('table')).toBeVisible();
  await check(page, testInfo, 'conversation');
});

test('the dialogs of the server manager', async ({ app, page }, testInfo) => {
  await page.goto(app.url);
  await openServers(page);
  const close = async (dialog: ReturnType<Page['getByRole']>) => {
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  };

  await page.getByRole('button', { name: 'Add server' }).click();
  const add = page.getByRole('dialog', { name: 'Add server' });
  await expect(add).toBeVisible();
  await check(page, testInfo, 'add-server');
  await close(add);

  await page.getByRole('button', { name: 'Import servers…' }).click();
  const importing = page.getByRole('dialog', { name: 'Import servers' });
  await expect(importing).toBeVisible();
  await check(page, testInfo, 'import');
  await close(importing);

  await page.getByRole('button', { name: 'Edit config file' }).click();
  const raw = page.getByRole('dialog', { name: 'Configuration file' });
  await expect(raw).toBeVisible();
  await check(page, testInfo, 'raw-config');
  await close(raw);

  await openConnectedServer(page, 'everything');
  const main = page.getByRole('main');
  await main.getByRole('tab', { name: /^Settings/ }).click();
  await main.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit “everything”' });
  await expect(edit).toBeVisible();
  await check(page, testInfo, 'edit-server');
  await close(edit);

  await main.getByRole('button', { name: 'Remove' }).click();
  const remove = page.getByRole('alertdialog');
  await expect(remove).toBeVisible();
  await check(page, testInfo, 'remove-server');
  await close(remove);
});

test('the consent dialogs and the delete confirmation', async ({ app, fakeApi, page }, testInfo) => {
  // A dozen axe runs in two themes: 24 s on a quiet machine, past the 60 s default on a busy one.
  test.slow();
  await page.goto(app.url);
  await setUpClaude(page, fakeApi.url);

  // A tool call from the chat.
  await sections(page).getByRole('button', { name: 'Servers' }).click();
  await expect(page.getByRole('button', { name: /^everything\s*Connected/ })).toBeVisible({
    timeout: 30_000,
  });
  await sections(page).getByRole('button', { name: 'Chat' }).click();
  await page.getByRole('textbox', { name: 'Message' }).fill('call echo {"message": "axe"}');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  const tool = page.getByRole('dialog', { name: /Allow Claude to run/ });
  await expect(tool).toBeVisible();
  await check(page, testInfo, 'tool-consent');
  await tool.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('The tool said');
  await check(page, testInfo, 'conversation-with-tool-card');

  await page
    .getByRole('button', { name: /^Delete “/ })
    .first()
    .click();
  const remove = page.getByRole('alertdialog');
  await expect(remove).toBeVisible();
  await check(page, testInfo, 'delete-conversation');
  await page.keyboard.press('Escape');
  await expect(remove).toBeHidden();

  // Sampling: the request, then the review of Claude's answer.
  await callTool(page, 'trigger-sampling-request', { prompt: 'Say hello', maxTokens: 50 });
  const sampling = page.getByRole('dialog', { name: /everything wants Claude to answer/ });
  await expect(sampling).toBeVisible();
  await check(page, testInfo, 'sampling');
  await sampling.getByRole('button', { name: 'Approve and send to Claude' }).click();
  const review = page.getByRole('dialog', { name: /Review Claude’s answer for everything/ });
  await expect(review).toBeVisible();
  await check(page, testInfo, 'sampling-review');
  await review.getByRole('button', { name: 'Reject' }).click();
  await expect(review).toBeHidden();

  // Elicitation: a form, then a link.
  await callTool(page, 'trigger-elicitation-request', {});
  const form = page.getByRole('dialog', { name: /everything asks for information/ });
  await expect(form).toBeVisible();
  await check(page, testInfo, 'elicitation-form');
  await form.getByRole('button', { name: 'Decline' }).click();
  await expect(form).toBeHidden();

  await callTool(page, 'trigger-url-elicitation', { url: 'https://example.com/verify', message: 'Verify' });
  const link = page.getByRole('dialog', { name: /everything asks you to open a link/ });
  await expect(link).toBeVisible();
  await check(page, testInfo, 'elicitation-url');
  await link.getByRole('button', { name: 'Decline' }).click();
});

test('the bundle dialogs: preview and settings, their errors, a bundle server, uninstall, an invalid signature', async ({
  app,
  page,
}, testInfo) => {
  const [bundle, tampered] = await Promise.all([packBundle(echoManifest()), packBundle(echoManifest())]);
  signBundle(tampered, selfSignedCertificate());
  tamper(tampered);
  await page.goto(app.url);
  await openServers(page);

  await chooseBundle(page, bundle);
  const dialog = page.getByRole('dialog', { name: 'Install “Settings Echo”?' });
  await expect(dialog.getByText('Not signed.')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('bundle-install-top.png') });
  await check(page, testInfo, 'bundle-install');
  await dialog.getByRole('button', { name: 'Install' }).click();
  await expect(dialog.getByText('Required')).toHaveCount(2);
  // Not hovering the button just pressed (its hover colour is the app's, checked elsewhere).
  await page.mouse.move(0, 0);
  await check(page, testInfo, 'bundle-install-errors');
  await dialog.getByLabel('API key').fill('sk-a11y');
  await dialog.getByLabel('Folder').fill(tempDir());
  await dialog.getByRole('button', { name: 'Install' }).click();
  await expect(dialog).toBeHidden();

  const main = page.getByRole('main');
  await expect(main.getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: testInfo.outputPath('bundle-server-top.png') });
  await check(page, testInfo, 'bundle-server');
  await main.getByRole('button', { name: 'Uninstall' }).click();
  const uninstall = page.getByRole('alertdialog', { name: 'Uninstall “settings-echo”?' });
  await expect(uninstall).toBeVisible();
  await check(page, testInfo, 'bundle-uninstall');
  await uninstall.getByRole('button', { name: 'Cancel' }).click();

  await chooseBundle(page, tampered);
  const invalid = page.getByRole('dialog', { name: '“Settings Echo” cannot be installed' });
  await expect(invalid.getByText('Invalid signature:')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('bundle-invalid-top.png') });
  await check(page, testInfo, 'bundle-invalid');
  await invalid.getByRole('button', { name: 'Close' }).click();
});

test('Browse, the install dialog, its review, a registry failure and an install link', async ({
  app,
  page,
}, testInfo) => {
  const registry = await spawnRegistry();
  try {
    await page.goto(app.url);
    await browseRegistry(page, registry.url);
    await check(page, testInfo, 'browse');

    await page.getByRole('button', { name: 'Install Everything…' }).click();
    const dialog = page.getByRole('dialog', { name: /Install Everything/ });
    await expect(dialog).toBeVisible();
    await check(page, testInfo, 'install-dialog');
    await dialog.getByLabel('EVERYTHING_API_KEY').fill('sk-axe');
    await dialog.getByRole('button', { name: 'Review…' }).click();
    await expect(dialog.getByTestId('install-command')).toBeVisible();
    await check(page, testInfo, 'install-review');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // An entry with more than one way to run it, one of them refused.
    await page.getByRole('searchbox', { name: 'Search the registry' }).fill('notes');
    await page.getByRole('button', { name: 'Install Notes (hosted)…' }).click();
    const remote = page.getByRole('dialog', { name: /Install Notes/ });
    await expect(remote.getByRole('group', { name: 'How to run it' })).toBeVisible();
    await check(page, testInfo, 'install-dialog-remote');
    await page.keyboard.press('Escape');

    await fetch(`${registry.url}/_config`, { method: 'POST', body: JSON.stringify({ mode: 'error' }) });
    await page.getByRole('searchbox', { name: 'Search the registry' }).fill('memory');
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
    await check(page, testInfo, 'browse-error');

    const entry = { command: 'bash', args: ['-c', 'echo hi'] };
    const link = `mcp-host://install?name=shell&config=${Buffer.from(JSON.stringify(entry)).toString('base64url')}`;
    await installLinkFromCli(app.configPath, link);
    await expect(page.getByRole('dialog', { name: /Install shell/ })).toBeVisible();
    await check(page, testInfo, 'install-link');
  } finally {
    await registry.stop();
  }
});
