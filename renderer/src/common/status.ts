import type { ServerStatus } from '../../../shared/model/server.js';

/** What a person reads for each server status; e2e tests match these exactly. */
export const STATUS_LABELS: Readonly<Record<ServerStatus, string>> = {
  connected: 'Connected',
  connecting: 'Connecting…',
  restarting: 'Restarting…',
  failed: 'Failed',
  'sign-in-required': 'Sign-in required',
  stopped: 'Stopped',
  disabled: 'Disabled',
};

/** Whether Stop (true) or Start (false) is the action that makes sense. */
export const isRunning = (status: ServerStatus): boolean =>
  status === 'connected' || status === 'connecting' || status === 'restarting';
