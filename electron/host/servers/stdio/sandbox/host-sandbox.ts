import { join } from 'node:path';
import type { SandboxServices } from './sandbox-launch.js';
import { STATE_FOLDER_NAME } from './sandbox-launch.js';
import type { SandboxAvailability } from './sandbox-availability.js';
import { detectSandbox } from './sandbox-availability.js';
import type { SandboxNetworkServices } from './network/proxy-launch.js';

/**
 * The sandbox of a host whose data lives in `appDataDir`: availability
 * detected at the first local start and remembered; MCP_HOST_SANDBOX=off
 * turns it off for every server (said so in each server's view). `network`
 * asks the person about hosts; absent, hosts not allowed are denied.
 */
export function hostSandbox(
  appDataDir: string,
  env: NodeJS.ProcessEnv = process.env,
  network?: SandboxNetworkServices,
): SandboxServices {
  let detected: Promise<SandboxAvailability> | undefined;
  const off = env.MCP_HOST_SANDBOX === 'off';
  return {
    appDataDir,
    stateRoot: join(appDataDir, STATE_FOLDER_NAME),
    ...(network !== undefined ? { network } : {}),
    availability: () =>
      off
        ? Promise.resolve({
            available: false,
            reason: 'turned off for every server (MCP_HOST_SANDBOX=off)',
            fix: 'unset MCP_HOST_SANDBOX',
          })
        : (detected ??= detectSandbox({ platform: process.platform, path: env.PATH ?? '' })),
  };
}
