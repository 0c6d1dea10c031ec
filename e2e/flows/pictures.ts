import type { Page, TestInfo } from '@playwright/test';

/** Light and dark pictures of the whole page, `<name>-light.png` and `<name>-dark.png`, for looking at what was built. */
export async function pictures(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.waitForTimeout(300); // let color transitions finish
  await page.screenshot({ path: testInfo.outputPath(`${name}-light.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(300);
  await page.screenshot({ path: testInfo.outputPath(`${name}-dark.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
}
