import { test, expect } from './fixtures/headless.js';

/** The headless page's sign-in, as Chromium sees it. */
test('the sign-in link leaves no credential in the address bar and cannot be used twice', async ({
  app,
  page,
  browser,
}) => {
  await page.goto(app.url);
  // The setup card comes from the host over the socket: the cookie signed it in.
  await expect(page.getByRole('region', { name: 'Set up Claude' })).toBeVisible();
  // The address bar (and so bookmarks and history) holds only the page's address.
  expect(page.url()).toBe(app.home);
  expect(await page.evaluate('location.search')).toBe('');
  expect(await page.evaluate('history.length')).toBeLessThanOrEqual(2);

  const cookies = await page.context().cookies(app.home);
  expect(cookies).toHaveLength(1);
  const [cookie] = cookies;
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe('Strict');
  expect(cookie?.path).toBe('/');
  // Scripts in the page cannot read it.
  expect(await page.evaluate('document.cookie')).toBe('');

  // The same link in another browser (a shared or bookmarked copy) signs nobody in.
  const other = await browser.newContext();
  try {
    const stranger = await other.newPage();
    const response = await stranger.goto(app.url);
    expect(response?.status()).toBe(401);
    await expect(stranger.locator('body')).toContainText(
      'This sign-in link was already used or has expired.',
    );
    expect(await other.cookies()).toEqual([]);
    expect((await stranger.goto(app.home))?.status()).toBe(401);
  } finally {
    await other.close();
  }
});
