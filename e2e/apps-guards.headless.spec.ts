import type { FrameLocator, Page } from '@playwright/test';
import { test, expect } from './fixtures/headless.js';
import { openConnectedServer } from './flows/server-everything.js';

/**
 * What an MCP App must not be able to do to the person or past its CSP
 * (issue 21, findings 9 and 11), with the fixture server's pushy, counter
 * and leaky apps (test/fixtures/servers/apps-server.mjs): full screen without
 * a click inside the app, covering or click-jacking a consent dialog, and
 * reaching the network through WebRTC or link hints.
 */
const appsFixture = 'test/fixtures/servers/apps-server.mjs';

test.use({
  initialConfig: { mcpServers: { apps: { command: process.execPath, args: [appsFixture] } } },
});

const appConsent = (page: Page) => page.getByRole('dialog', { name: /Allow the app to run/ });
const appIn = (page: Page, resourceUri: string): FrameLocator =>
  page.locator(`iframe[title^="App ${resourceUri}"]`).last().contentFrame().frameLocator('iframe');

/** Calls `tool` of the fixture server from Servers → Tools (its app appears under the result). */
async function callTool(page: Page, tool: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${tool}`) }).click();
  await page.getByRole('button', { name: 'Call tool' }).click();
}

test.beforeEach(async ({ app, page }) => {
  await page.goto(app.url);
  await openConnectedServer(page, 'apps');
  await page.getByRole('tab', { name: /Tools/ }).click();
});

// With tracing on (trace: 'retain-on-failure'), Playwright runs a script with a user gesture in the
// proxy page as soon as the app's frame appears: the proxy page gets an activation no one gave the
// app. The proxy must not take that for a click in the app (sandbox-proxy.ts, `inApp`).
test('an app gets full screen only right after a click inside its own frame', async ({ page }) => {
  await callTool(page, 'pushy');
  const view = appIn(page, 'ui://apps/pushy.html');
  const fullscreen = page.getByRole('dialog', { name: 'App of pushy' });
  // Nothing here may look into the app's frames until its own request is answered: Playwright's
  // evaluations there count as user gestures. The host page says when the app is live.
  await expect(page.locator('.app-frame__state')).toHaveCount(0, { timeout: 20_000 });
  await page.waitForTimeout(1_500);
  await expect(fullscreen).toBeHidden();
  // On its own (even after posting a forged activation notice): refused, with an error to the app.
  await expect(view.locator('#auto')).toContainText('auto: refused');
  await expect(view.locator('#auto')).toContainText('needs a click or key press inside the app');
  // A click on its button that is no press of the person's: a script run with a user gesture (as
  // Playwright's evaluations are), while the focus is on the host page. The frames have a user
  // activation now, but nobody pressed anything in the app: refused.
  await view.locator('#full').evaluate((button: { click: () => void }) => {
    button.click();
  });
  await expect(view.locator('#status')).toContainText('status: refused');
  await expect(fullscreen).toBeHidden();
  // After a real click in the app (the mouse at its big button, once the activation Playwright's
  // own look into the frame gave has lapsed): granted.
  await page.waitForTimeout(5_500);
  const frame = await page.locator('iframe[title^="App ui://apps/pushy.html"]').boundingBox();
  if (frame === null) throw new Error('The app frame has no box');
  await page.mouse.click(frame.x + frame.width / 2, frame.y + 30);
  await expect(fullscreen).toBeVisible();
  await expect(view.locator('#status')).toHaveText('status: granted fullscreen');
  await page.getByRole('button', { name: 'Exit full screen' }).click();
  await expect(fullscreen).toBeHidden();
});

test('an app asking for full screen over and over cannot cover the consent dialog it caused', async ({
  page,
}, testInfo) => {
  await callTool(page, 'pushy');
  const view = appIn(page, 'ui://apps/pushy.html');
  await expect(view.locator('#auto')).not.toHaveText('auto: waiting', { timeout: 20_000 });
  // The click gives the app a user gesture; it calls a tool (consent) and toggles full screen every 50 ms.
  await view.getByRole('button', { name: 'Call and cover' }).click();
  const dialog = appConsent(page);
  await expect(dialog).toBeVisible();
  const allow = dialog.getByRole('button', { name: 'Allow once' });
  const covered: string[] = [];
  for (let i = 0; i < 25; i++) {
    const box = await allow.boundingBox();
    if (box === null) throw new Error('The Allow button has no box');
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    // What the person would click at the middle of Allow (the page's own hit test).
    const hit = await page.evaluate<string>(
      `(() => { const e = document.elementFromPoint(${String(x)}, ${String(y)});
        return e && e.closest('dialog.consent') ? 'consent' : e ? e.outerHTML.slice(0, 80) : 'nothing'; })()`,
    );
    if (hit !== 'consent') covered.push(hit);
    await page.waitForTimeout(80);
  }
  await page.screenshot({ path: testInfo.outputPath('consent-over-pushy-app.png') });
  expect(covered).toEqual([]);
  await allow.click();
  await expect(dialog).toBeHidden();
  await expect(view.locator('#cover')).toContainText('call done');
});

test('a click on Allow in the first half second of a consent dialog does nothing', async ({ page }) => {
  await callTool(page, 'show-counter');
  const view = appIn(page, 'ui://apps/counter.html');
  await expect(view.locator('#value')).toHaveText('0', { timeout: 20_000 });
  // When the dialog appears, and every trusted click on the page (capture phase, before React).
  await page.evaluate(`(() => {
    window.clicks = [];
    new MutationObserver(() => {
      if (window.shownAt === undefined && document.querySelector('dialog.consent') !== null) {
        window.shownAt = performance.now();
      }
    }).observe(document.body, { childList: true, subtree: true });
    document.addEventListener('click', (event) => {
      if (event.isTrusted && event.target instanceof Element) {
        window.clicks.push({ at: performance.now(), text: event.target.textContent });
      }
    }, true);
  })()`);
  const dialog = appConsent(page);
  const allow = dialog.getByRole('button', { name: 'Allow once' });
  // The first dialog, answered normally once its button counts (Playwright waits for it to be
  // enabled): where its Allow button is, so the next click needs no look-up.
  await view.getByRole('button', { name: 'Increment' }).click();
  const box = await allow.boundingBox();
  if (box === null) throw new Error('The Allow button has no box');
  await allow.click();
  await expect(dialog).toBeHidden();
  await expect(view.locator('#value')).toHaveText('1');
  // Then a real mouse click on Allow the moment the same dialog appears again, as a click-jacker
  // would time it. On a slow machine the click may come later than 500 ms; such a round proves
  // nothing and is tried again.
  let value = 1;
  let proven = false;
  for (let round = 0; round < 4 && !proven; round++) {
    await page.evaluate('window.shownAt = undefined; window.clicks = []');
    await view.getByRole('button', { name: 'Increment' }).click();
    await allow.waitFor();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const timing = await page.evaluate<number | null>(`(() => {
      const click = window.clicks.find((c) => c.text === 'Allow once');
      return click && window.shownAt !== undefined ? click.at - window.shownAt : null;
    })()`);
    if (timing !== null && timing < 450) {
      await page.waitForTimeout(800);
      await expect(dialog).toBeVisible();
      await expect(view.locator('#value')).toHaveText(String(value));
      proven = true;
    }
    if (await dialog.isVisible()) await allow.click();
    await expect(dialog).toBeHidden();
    value++;
    await expect(view.locator('#value')).toHaveText(String(value));
  }
  expect(proven).toBe(true);
});

test('an app reaches no loopback canary through WebRTC (STUN, TURN), preconnect or prefetch', async ({
  page,
}) => {
  await callTool(page, 'leaky');
  const view = appIn(page, 'ui://apps/leaky.html');
  await expect(view.locator('#out')).toContainText('LEAKY DONE', { timeout: 20_000 });
  const seen = await view.locator('#out').innerText();
  // ICE gathering and link hints are asynchronous: give them time to arrive at the canaries.
  await page.waitForTimeout(2_000);
  await callTool(page, 'canary');
  await expect(page.getByRole('region', { name: 'Result' }).last()).toContainText('canary hits: []');
  expect(seen).toContain('webrtc: no RTCPeerConnection');
});
