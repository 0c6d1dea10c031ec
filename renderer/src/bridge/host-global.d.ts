import type { HostApi } from '../../../shared/ipc/host-api.js';

declare global {
  interface Window {
    /** Exposed by the Electron preload (contextBridge); absent when the UI is served headless. */
    readonly host?: HostApi;
  }
}
