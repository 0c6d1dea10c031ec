import { randomUUID } from 'node:crypto';
import type { DomainHandlers } from '../ipc/handlers.js';
import type { HostOptions } from '../host-types.js';

/** The app's own request: what runs, where, and which instance (a reconnecting page notices a restart). */
export function appInfoHandlers(options: Pick<HostOptions, 'appVersion' | 'shell'>): DomainHandlers<'app'> {
  const instance = { instanceId: randomUUID(), startedAt: Date.now() };
  return {
    getAppInfo: () =>
      Promise.resolve({
        name: 'MCP Host',
        version: options.appVersion,
        shell: options.shell,
        platform: process.platform,
        ...instance,
      }),
  };
}
