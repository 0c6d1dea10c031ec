import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// Debian's Chromium: Playwright's own browser download is not reachable on
// our machines. Elsewhere, set CHROMIUM_PATH or let Playwright use its own.
const chromium =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  projects: [
    {
      name: 'headless',
      testMatch: /headless\.spec\.ts/,
      use: {
        browserName: 'chromium',
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          ...(chromium !== undefined ? { executablePath: chromium } : {}),
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
        screenshot: 'only-on-failure',
        trace: 'retain-on-failure',
      },
    },
    { name: 'electron', testMatch: /electron\.spec\.ts/ },
  ],
});
