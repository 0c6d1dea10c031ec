import type { Page, TestInfo } from '@playwright/test';

/**
 * Light and dark screenshots of what is on screen now, `<name>-light.png` and
 * `<name>-dark.png` in the test's output folder, to be looked at. Each waits
 * for the theme's color transitions; the page is left light.
 */
export async function lightAndDark(
  page: Page,
  testInfo: TestInfo,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForTimeout(300);
    await page.screenshot({
      path: testInfo.outputPath(`${name}-${colorScheme}.png`),
      animations: 'disabled',
      ...(options.fullPage === true ? { fullPage: true } : {}),
    });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
