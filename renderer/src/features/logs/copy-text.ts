/**
 * Puts text on the clipboard: the async Clipboard API where the page may use
 * it, else a hidden textarea and execCommand (older shells, denied permission).
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the fallback when the Clipboard API is refused
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}
