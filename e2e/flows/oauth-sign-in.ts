import { expect, type Page } from '@playwright/test';

/**
 * Completes the OAuth test stack's login and consent pages (oidc-provider's dev
 * interactions) in `page`, standing in for the system browser: any login
 * signs in and becomes the account's `sub`. Returns once the authorization
 * server has sent the page on to the client's callback (`callbackPrefix`).
 */
export async function signInOnAuthorizationPage(
  page: Page,
  options: { login?: string; callbackPrefix: string },
): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign-in' })).toBeVisible();
  await page.getByPlaceholder('Enter any login').fill(options.login ?? 'alice');
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  const atCallback = () => page.url().startsWith(options.callbackPrefix);
  // A grant given before skips the consent page.
  const consent = page.getByRole('button', { name: 'Continue' });
  await expect.poll(async () => atCallback() || (await consent.isVisible())).toBe(true);
  if (!atCallback()) {
    await consent.click();
    await page.waitForURL((url) => url.href.startsWith(options.callbackPrefix));
  }
}

/** Presses Cancel on the login or consent page (the callback then carries error=access_denied). */
export async function cancelOnAuthorizationPage(page: Page): Promise<void> {
  await page.getByRole('link', { name: '[ Cancel ]' }).click();
}
