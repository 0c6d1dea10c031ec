import type { RuntimeCheck } from '../../../shared/model/registry.js';
import { currentRuntime, findOnPath, npxBesideRuntime } from '../servers/stdio/launch-spec.js';
import type { AppRuntime } from '../servers/stdio/launch-spec.js';
import type { HostEnvironment } from '../servers/stdio/login-env.js';
import { runtimeNeed } from '../servers/stdio/runtime-needs.js';

/**
 * Whether a package's runtime (npx, uvx, docker) is on this machine, looked
 * up the way a server is started: on the login shell's PATH, and for npx
 * also npm beside the app's own runtime (launch-spec.ts). Checked before an
 * install so a missing runtime is one clear line, never a spawn failure.
 */
export async function checkRuntime(
  command: string,
  environment: HostEnvironment,
  runtime: AppRuntime = currentRuntime(),
): Promise<RuntimeCheck> {
  const vars = environment.all;
  const found = await findOnPath(command, vars.PATH ?? vars.Path ?? '', vars.PATHEXT);
  if (found !== undefined) return { command, found: true };
  if (command === 'npx' && (await npxBesideRuntime(runtime)) !== undefined) {
    return {
      command,
      found: true,
      note: `npx is not on your PATH: the app's own runtime (Node ${runtime.nodeVersion}) will run it`,
    };
  }
  return {
    command,
    found: false,
    note: `Needs ${runtimeNeed(command)?.what ?? command}, not found on this machine`,
  };
}
