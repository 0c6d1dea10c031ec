import { stat } from 'node:fs/promises';
import { sep } from 'node:path';
import { currentRuntime, findOnPath } from '../../servers/stdio/launch-spec.js';
import type { AppRuntime } from '../../servers/stdio/launch-spec.js';
import type { HostEnvironment } from '../../servers/stdio/login-env.js';
import { hasFile } from './bundle-files.js';
import type { OpenedBundle } from './bundle-files.js';
import type { LaunchTemplate } from './bundle-launch.js';
import type { RuntimeCheck } from './bundle-preview.js';

/** Where the program a bundle runs comes from (the bundle, PATH, the app's own Node), or a clear line that it is missing. */

export interface RuntimeContext {
  environment: () => Promise<HostEnvironment>;
  runtime?: AppRuntime | undefined;
}

export async function runtimeOf(
  launch: LaunchTemplate,
  opened: OpenedBundle,
  dir: string,
  context: RuntimeContext,
): Promise<RuntimeCheck> {
  const command = launch.command;
  if (command.startsWith(dir + sep)) {
    const inside = command
      .slice(dir.length + 1)
      .split(sep)
      .join('/');
    return hasFile(opened.entries, inside)
      ? { found: true, text: `Runs ${inside} from the bundle.` }
      : { found: false, text: `The program the bundle runs (${inside}) is not in the bundle.` };
  }
  const env = (await context.environment()).all;
  const path = env.PATH ?? env.Path ?? '';
  const found =
    command.includes('/') || command.includes('\\')
      ? await executable(command)
      : await findOnPath(command, path, env.PATHEXT);
  if (found !== undefined) return { found: true, text: `Runs with ${found}.` };
  const base = command.replace(/\.exe$/i, '').toLowerCase();
  if (base === 'node') {
    const runtime = context.runtime ?? currentRuntime();
    const which = runtime.electron ? `Electron's Node ${runtime.nodeVersion}` : `Node ${runtime.nodeVersion}`;
    return {
      found: true,
      text: `node is not on this computer's PATH: it runs on the app's own runtime (${which}).`,
    };
  }
  const hint = base.startsWith('python')
    ? ' Install Python 3 and try again.'
    : base === 'uv'
      ? ' Install uv (https://docs.astral.sh/uv/) and try again.'
      : '';
  return {
    found: false,
    text: `This bundle needs ${command}, which is not on this computer (not found on PATH).${hint}`,
  };
}

async function executable(path: string): Promise<string | undefined> {
  return stat(path).then(
    (s) => (s.isFile() ? path : undefined),
    () => undefined,
  );
}
