import { spawn } from 'node:child_process';
import { win32 } from 'node:path';

/** A program and its arguments, run directly: no shell ever parses the URL. */
export interface OpenCommand {
  command: string;
  args: string[];
}

/**
 * How to hand an http(s) URL to the system browser on each platform, without
 * a shell in between. On Windows `cmd /c start <url>` would let `&`, `|` or
 * `^` in the URL start a second command; `rundll32 url.dll,FileProtocolHandler`
 * takes the URL as one argument and opens it with the default handler. The
 * URL is normalized by the URL parser first (spaces, quotes and control
 * characters percent-encoded).
 */
export function openUrlCommand(
  url: string,
  platform: NodeJS.Platform = process.platform,
  env: Readonly<Record<string, string | undefined>> = process.env,
): OpenCommand {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`Refusing to open a ${parsed.protocol} URL`);
  }
  const href = parsed.href;
  if (platform === 'darwin') return { command: 'open', args: [href] };
  if (platform === 'win32') {
    // The full path: a rundll32.exe in the current folder or early on PATH is not ours.
    const command = win32.join(env.SystemRoot ?? env.windir ?? 'C:\\Windows', 'System32', 'rundll32.exe');
    return { command, args: ['url.dll,FileProtocolHandler', href] };
  }
  return { command: 'xdg-open', args: [href] };
}

/** Opens an http(s) URL in the system browser; resolves once the opener has started. */
export function openUrl(url: string): Promise<void> {
  const { command, args } = openUrlCommand(url);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, windowsHide: true, shell: false });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
