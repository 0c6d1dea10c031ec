import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures/headless.js';

/**
 * The page's checks of what the host sends (the contract's schemas and zod)
 * load after the first screen, apart from it (renderer/src/bridge/
 * inbound-checks.ts). What the host answers meanwhile waits for them; when
 * they cannot be loaded, nothing from the host is shown and the page says so.
 */

const CHECKS_CHUNK = /\/assets\/inbound-checks-[^/]+\.js$/;

test('the first screen draws before the checks have loaded; what the host sent meanwhile shows once they have', async ({
  app,
  page,
}) => {
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let requested = false;
  await page.route(CHECKS_CHUNK, async (route) => {
    requested = true;
    await released;
    await route.continue();
  });
  await page.goto(app.url);

  const newConversation = page.getByRole('region', { name: 'New conversation' });
  await expect(newConversation.getByRole('heading', { name: 'Start a conversation' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  expect(requested).toBe(true);
  // The settings the host sent (no key yet) wait for the checks: nothing of them shows.
  await page.waitForTimeout(500);
  await expect(page.getByRole('region', { name: 'Set up Claude' })).toBeHidden();

  release();
  await expect(page.getByRole('region', { name: 'Set up Claude' })).toBeVisible();
  await expect(page.getByRole('alert')).toBeHidden();
});

test('when the checks cannot be loaded the page shows nothing from the host, says so, and a reload recovers', async ({
  app,
  page,
}, testInfo) => {
  await page.route(CHECKS_CHUNK, (route) => route.abort());
  await page.goto(app.url);

  const alert = page.getByRole('alert');
  await expect(alert).toContainText('This page did not load completely');
  await expect(alert).toContainText('Reload the page');
  await expect(page.getByRole('region', { name: 'Set up Claude' })).toBeHidden();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await page.waitForTimeout(250);
    await page.screenshot({ path: testInfo.outputPath(`checks-failed-${scheme}.png`) });
    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    expect(axe.violations.map((v) => `[${scheme}] ${v.id}: ${v.help}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });

  await page.unroute(CHECKS_CHUNK);
  await alert.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('region', { name: 'Set up Claude' })).toBeVisible();
  await expect(page.getByRole('alert')).toBeHidden();
});
