import type { Page } from '@playwright/test';
import { spawnOAuthStack } from '../test/fixtures/oauth-stack-process.js';
import type { OAuthStackProcess } from '../test/fixtures/oauth-stack-process.js';
import { expect, test } from './fixtures/headless.js';
import { openServers } from './flows/server-everything.js';
import { signInOnAuthorizationPage } from './flows/oauth-sign-in.js';
import { lightAndDark } from './flows/pictures.js';

// Sign-in to a remote server as a person does it, against the real OAuth test
// stack (oidc-provider in front of an MCP server on the v2 server SDK that
// checks the bearer token and its audience). The headless shell opens no
// browser (MCP_HOST_NO_BROWSER=1); a second page of the same Chromium stands
// in for the system browser and goes to the link the waiting panel offers.

let stack: OAuthStackProcess;

test.use({ extraEnv: { MCP_HOST_NO_BROWSER: '1' } });

test.beforeEach(async () => {
  stack = await spawnOAuthStack();
});

test.afterEach(async () => {
  await stack.stop();
});

async function refreshGrants(): Promise<number> {
  const { authorizationServer } = await stack.events();
  return authorizationServer.filter((e) => e.event === 'grant.success' && e.grantType === 'refresh_token')
    .length;
}

/** Calls `whoami` from the server's Tools tab; returns the Result region. */
async function callWhoami(page: Page) {
  const main = page.getByRole('main');
  await main.getByRole('tab', { name: /^Tools/ }).click();
  await main
    .getByRole('list', { name: 'Tools' })
    .getByRole('button', { name: /^whoami\b/ })
    .click();
  await main.getByLabel('Arguments (JSON)').fill('{}');
  await main.getByRole('button', { name: 'Call tool' }).click();
}

test('a remote server that needs sign-in: sign in in the browser, call a tool, silent refresh, revoked → sign in again', async ({
  app,
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(app.url);
  await openServers(page);

  // Added through the form like any remote server; nothing OAuth-specific to fill in.
  await page.getByRole('button', { name: 'Add server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add server' });
  await dialog.getByRole('radio', { name: 'Remote (HTTP)' }).check();
  await dialog.getByLabel('Name').fill('tickets');
  await dialog.getByLabel('URL').fill(stack.mcpUrl);
  await dialog.getByRole('button', { name: 'Add and connect' }).click();
  await expect(dialog).toBeHidden();

  const main = page.getByRole('main');
  const sidebar = page.getByRole('navigation', { name: 'Servers' });
  await expect(main.getByRole('heading', { level: 2, name: 'tickets' })).toBeVisible();
  await expect(main.locator('.server-header').getByText('Sign-in required', { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(main.getByText(/Sign in at 127\.0\.0\.1:\d+/)).toBeVisible();
  await expect(sidebar.getByRole('button', { name: /tickets/ })).toContainText('Sign-in required');
  await expect(
    page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Servers' }),
  ).toHaveAccessibleDescription('1 server needs sign-in');
  await lightAndDark(page, testInfo, '1-sign-in-required');
  // Before anything is stored: where the tokens will be kept (no keychain here), never "encrypted".
  await expect(main.locator('.sign-in')).toContainText(
    'No system keychain is available, so saved credentials are only obfuscated (not encrypted)',
  );

  // Sign in, then Cancel: back to "Sign-in required", nothing lost.
  await main.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(main.getByText('Waiting for you to finish signing in in your browser…')).toBeVisible();
  await expect(main.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(main.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(main.getByRole('button', { name: 'Sign in', exact: true })).toBeFocused();

  // Sign in for real: the "browser" is a second page that follows the panel's link.
  await main.getByRole('button', { name: 'Sign in', exact: true }).click();
  const link = main.getByRole('link', { name: 'Open the sign-in page' });
  await expect(link).toBeVisible();
  await expect(main.getByText(/\d+:\d\d left before the sign-in is given up/)).toBeVisible();
  await expect(sidebar.getByRole('button', { name: /tickets/ })).toContainText('waiting…');
  await lightAndDark(page, testInfo, '2-waiting-for-browser');
  const authorizationUrl = new URL((await link.getAttribute('href')) ?? '');
  expect(authorizationUrl.origin).toBe(stack.issuer);
  const redirectUri = authorizationUrl.searchParams.get('redirect_uri') ?? '';
  expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);

  const browser = await page.context().newPage();
  await browser.goto(authorizationUrl.href);
  await signInOnAuthorizationPage(browser, { login: 'carol', callbackPrefix: redirectUri });
  await browser.close();

  await expect(main.locator('.server-header').getByText('Connected', { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  const signedIn = main.getByRole('region', { name: 'Sign-in' });
  await expect(signedIn).toContainText(stack.issuer);
  await expect(signedIn).toContainText(/Expires in \d+ (min|h)/);
  await expect(signedIn).toContainText('renews itself');
  await expect(signedIn).toContainText('Dynamic client registration');
  await expect(signedIn.getByRole('list', { name: 'Granted scopes' })).toContainText('mcp:read');
  await expect(
    page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Servers' }),
  ).not.toHaveAccessibleDescription(/sign-in/);
  await lightAndDark(page, testInfo, '3-signed-in');

  await callWhoami(page);
  const result = main.getByRole('region', { name: 'Result' });
  await expect(result).toContainText('carol');

  // The access token expires: the next call renews it without asking anything.
  const refreshesBefore = await refreshGrants();
  await stack.expireAccessTokens();
  await main.getByRole('button', { name: 'Call tool' }).click();
  await expect(result).toContainText('carol');
  expect((await refreshGrants()) - refreshesBefore).toBe(1);
  await expect(main.locator('.server-header').getByText('Connected', { exact: true })).toBeVisible();
  await expect(main.getByRole('button', { name: 'Sign in', exact: true })).toHaveCount(0);
  await lightAndDark(page, testInfo, '4-refreshed-silently');

  // The refresh token is revoked: the next call ends in "Sign-in required", in one line.
  await stack.revokeRefreshTokens();
  await stack.expireAccessTokens();
  await main.getByRole('button', { name: 'Call tool' }).click();
  await expect(main.locator('.server-header').getByText('Sign-in required', { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(main.getByText(/expired or was revoked|new sign-in/).first()).toBeVisible();
  await expect(main.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(sidebar.getByRole('button', { name: /tickets/ })).toContainText('Sign-in required');
  await expect(main).not.toContainText(/eyJ[\w-]{10,}|at \w+ \(.*:\d+:\d+\)/);
  await lightAndDark(page, testInfo, '5-sign-in-required-again');
});
