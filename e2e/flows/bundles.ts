import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Page } from '@playwright/test';

/** Chooses a bundle with the page's file chooser ("Install from bundle…" in the headless shell). */
export async function chooseBundle(page: Page, path: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Install from bundle…' }).click();
  await (await chooser).setFiles(path);
}

/** Drops a bundle file onto the window, as a person drags it from their file manager. */
export async function dropBundle(page: Page, path: string, target = 'main'): Promise<void> {
  // Page code as text: this file is compiled without the DOM's types.
  const data = JSON.stringify(readFileSync(path).toString('base64'));
  const dataTransfer = await page.evaluateHandle(`(() => {
    const binary = atob(${data});
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], ${JSON.stringify(basename(path))}, { type: 'application/octet-stream' }));
    return transfer;
  })()`);
  await page.dispatchEvent(target, 'dragover', { dataTransfer });
  await page.dispatchEvent(target, 'drop', { dataTransfer });
}
