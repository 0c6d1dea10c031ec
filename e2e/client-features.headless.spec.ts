import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { test as base, expect } from './fixtures/headless.js';
import { everythingEntry, openConnectedServer } from './flows/server-everything.js';
import { startFakeAnthropic } from '../test/fixtures/fake-anthropic.js';
import type { FakeAnthropic } from '../test/fixtures/fake-anthropic.js';
import { lightAndDark } from './flows/pictures.js';

/**
 * Sampling and elicitation as a person meets them: server-everything's
 * trigger tools raise the consent dialogs; Claude is a local fake Messages
 * API the headless shell reaches through ANTHROPIC_BASE_URL.
 */
const test = base.extend<{ claude: FakeAnthropic }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
  claude: async ({}, use) => {
    const claude = await startFakeAnthropic();
    await use(claude);
    await claude.close();
  },
  extraEnv: async ({ claude }, use) => {
    await use({ ANTHROPIC_API_KEY: 'e2e-key', ANTHROPIC_BASE_URL: claude.url });
  },
});

/** Our raw fixture that samples with tools and includeContext. */
const samplerEntry = fileURLToPath(new URL('../test/fixtures/servers/sampling-server.mjs', import.meta.url));

test.use({
  initialConfig: {
    mcpServers: {
      everything: { command: process.execPath, args: [everythingEntry, 'stdio'] },
      sampler: { command: process.execPath, args: [samplerEntry] },
    },
  },
});

/** Selects a connected server, opens one of its tools and calls it with the given arguments. */
async function callTool(
  page: Page,
  url: string,
  tool: string,
  args: object,
  server = 'everything',
): Promise<void> {
  await page.goto(url);
  await openConnectedServer(page, server);
  const main = page.getByRole('main');
  const tools = main.getByRole('list', { name: 'Tools' });
  await tools.getByRole('button', { name: new RegExp(`^${tool}(\\s|$)`) }).click();
  await main.getByLabel('Arguments (JSON)').fill(JSON.stringify(args));
  await main.getByRole('button', { name: 'Call tool' }).click();
}

const result = (page: Page) => page.getByRole('main').getByRole('region', { name: 'Result' });

test('sampling approved: the person edits the request, Claude answers, the server gets the reviewed answer', async ({
  app,
  page,
  claude,
}, testInfo) => {
  await callTool(page, app.url, 'trigger-sampling-request', {
    prompt: 'What is the capital of France?',
    maxTokens: 100,
  });

  const dialog = page.getByRole('dialog', { name: /everything wants Claude to answer/ });
  await expect(dialog).toBeVisible();
  const message = dialog.getByRole('textbox', { name: 'User message 1' });
  await expect(message).toHaveValue(
    'Resource trigger-sampling-request context: What is the capital of France?',
  );
  await expect(message).toBeFocused();
  await expect(dialog.getByLabel('System prompt')).toHaveValue('You are a helpful test server.');
  await expect(dialog.getByLabel('Max tokens')).toHaveValue('100');
  await expect(dialog).toContainText('claude-sonnet-5-5');
  await lightAndDark(page, testInfo, 'sampling-request');

  await message.fill('What is the capital of Italy?');
  await dialog.getByLabel('Max tokens').fill('60');
  claude.enqueue({ type: 'text', text: 'Rome.' });
  await dialog.getByRole('button', { name: 'Approve and send to Claude' }).click();

  const review = page.getByRole('dialog', { name: /Review Claude’s answer for everything/ });
  await expect(review).toBeVisible();
  await expect(review.getByRole('textbox', { name: 'Answer text 1' })).toHaveValue('Rome.');
  await lightAndDark(page, testInfo, 'sampling-review');
  await review.getByRole('textbox', { name: 'Answer text 1' }).fill('Rome, Italy.');
  await review.getByRole('button', { name: 'Send to server' }).click();

  await expect(result(page)).toContainText('"text": "Rome, Italy."');
  expect(claude.messageRequests()).toHaveLength(1);
  expect(claude.messageRequests()[0]).toMatchObject({
    max_tokens: 60,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the capital of Italy?' }] }],
  });
});

test('sampling rejected: the server gets the user-rejected error and Claude is never called', async ({
  app,
  page,
  claude,
}) => {
  await callTool(page, app.url, 'trigger-sampling-request', { prompt: 'Tell me a secret' });
  const dialog = page.getByRole('dialog', { name: /everything wants Claude to answer/ });
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(dialog).toBeHidden();
  await expect(result(page)).toContainText('User rejected sampling request');
  expect(claude.messageRequests()).toHaveLength(0);
});

test('elicitation form filled: defaults shown, validation before accept, the server gets the answers', async ({
  app,
  page,
}, testInfo) => {
  await callTool(page, app.url, 'trigger-elicitation-request', {});
  const dialog = page.getByRole('dialog', { name: /everything asks for information/ });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Please provide inputs for the following fields:');
  // Defaults are filled in.
  await expect(dialog.getByLabel('String with default', { exact: true })).toHaveValue(
    'It was a dark and stormy night.',
  );
  await expect(dialog.getByLabel('Integer', { exact: true })).toHaveValue('42');
  await expect(dialog.getByLabel('Titled Single Select Enum', { exact: true })).toHaveValue('hero-1');
  await expect(dialog.getByRole('checkbox', { name: 'Guitar' })).toBeChecked();
  await lightAndDark(page, testInfo, 'elicitation-form');

  // Validation: the required name is missing and the email is malformed.
  await dialog.getByLabel('String with email format', { exact: true }).fill('not-an-email');
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await expect(dialog.getByText('This field is required')).toBeVisible();
  await expect(dialog.getByText('Enter an email address (name@example.com)')).toBeVisible();
  await expect(dialog.getByRole('alert').filter({ hasText: 'fields need your attention' })).toBeVisible();
  await expect(dialog.getByLabel('String', { exact: true })).toBeFocused();
  await lightAndDark(page, testInfo, 'elicitation-form-errors');

  await dialog.getByLabel('String', { exact: true }).fill('Ada Lovelace');
  await dialog.getByLabel('String with email format', { exact: true }).fill('ada@example.org');
  await dialog.getByRole('checkbox', { name: 'Boolean' }).check();
  await dialog
    .getByLabel('Legacy Titled Single Select Enum', { exact: true })
    .selectOption({ label: 'Dogs' });
  await dialog.getByRole('checkbox', { name: 'Piano' }).check();
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await expect(dialog).toBeHidden();

  const out = result(page);
  await expect(out).toContainText('- Name: Ada Lovelace');
  await expect(out).toContainText('- Email: ada@example.org');
  await expect(out).toContainText('"legacyTitledEnum": "pet-2"');
  await expect(out).toContainText('"untitledMultipleSelectEnum": [');
  await expect(out).toContainText('"Piano"');
  await expect(out).toContainText('"firstLine": "It was a dark and stormy night."');
});

test('elicitation declined: the server hears "decline"', async ({ app, page }) => {
  await callTool(page, app.url, 'trigger-elicitation-request', {});
  const dialog = page.getByRole('dialog', { name: /everything asks for information/ });
  await dialog.getByRole('button', { name: 'Decline' }).click();
  await expect(dialog).toBeHidden();
  await expect(result(page)).toContainText('User declined to provide the requested information');
});

test('URL elicitation: the real domain is highlighted and a punycode host is flagged', async ({
  app,
  page,
}, testInfo) => {
  await callTool(page, app.url, 'trigger-url-elicitation', {
    url: 'https://accounts.xn--pple-43d.com/authorize?client=demo',
    message: 'Sign in to continue.',
  });
  const dialog = page.getByRole('dialog', { name: /everything asks you to open a link/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('mark')).toHaveText('xn--pple-43d.com');
  await expect(dialog.getByRole('list', { name: 'Warnings' })).toContainText(
    '"accounts.\u0430pple.com" is really "accounts.xn--pple-43d.com"',
  );
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await lightAndDark(page, testInfo, 'elicitation-url');
  await dialog.getByRole('button', { name: 'Decline' }).click();
  await expect(result(page)).toContainText('User declined to open the URL');
});

test('sampling with tools and context: tools are listed and context is added only when ticked', async ({
  app,
  page,
  claude,
}, testInfo) => {
  await callTool(page, app.url, 'ask-with-tools', {}, 'sampler');
  const dialog = page.getByRole('dialog', { name: /sampler wants Claude to answer/ });
  await expect(dialog).toContainText('claude-haiku-5-5');
  await expect(dialog).toContainText('get_weather');
  const context = dialog.getByRole('checkbox', {
    name: 'Add this server’s own instructions to the system prompt',
  });
  await expect(context).not.toBeChecked();
  await expect(dialog).toContainText('SAMPLING-FIXTURE-INSTRUCTIONS');
  await lightAndDark(page, testInfo, 'sampling-tools-context');
  await context.check();
  claude.enqueue({ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } });
  await dialog.getByRole('button', { name: 'Approve and send to Claude' }).click();
  const review = page.getByRole('dialog', { name: /Review Claude’s answer for sampler/ });
  await expect(review).toContainText('Tool use: get_weather');
  await lightAndDark(page, testInfo, 'sampling-review-tool-use');
  await review.getByRole('button', { name: 'Send to server' }).click();
  await expect(result(page)).toContainText('"stopReason":"toolUse"');
  expect(JSON.stringify(claude.messageRequests()[0]?.system)).toContain('SAMPLING-FIXTURE-INSTRUCTIONS');
});
