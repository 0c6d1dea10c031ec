import { randomUUID } from 'node:crypto';
import type { DomainHandlers } from '../ipc/handlers.js';
import type { HostOptions } from '../host-types.js';
import { describeSecretStorage } from '../secrets/storage-description.js';

/**
 * The app's own request: what runs, where, which instance (a reconnecting
 * page notices a restart), and where saved credentials are kept.
 */
export function appInfoHandlers(
  options: Pick<HostOptions, 'appVersion' | 'shell' | 'platform'>,
): DomainHandlers<'app'> {
  const instance = { instanceId: randomUUID(), startedAt: Date.now() };
  return {
    getAppInfo: () =>
      Promise.resolve({
        name: 'MCP Host',
        version: options.appVersion,
        shell: options.shell,
        platform: process.platform,
        ...instance,
        secretStorage: describeSecretStorage(options.platform.secretStorage()),
      }),
  };
}
