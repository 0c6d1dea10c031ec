import type { ServerStatus } from '../../../../shared/model/server.js';
import type { ServerCatalog } from '../server-catalog.js';
import type { TransportSession } from '../transport/server-transport.js';

/**
 * Where one server's connection stands. Each variant carries only what is
 * true in it: only a connected server has a session and a catalog, only a
 * failed or restarting one an error, only a restarting one a time to
 * restart at.
 */
export type ConnectionState =
  | { readonly status: 'stopped' }
  | { readonly status: 'disabled' }
  | {
      readonly status: 'connecting';
      readonly since: number;
      /** An automatic restart keeps the crash's reason visible while it tries. */
      readonly error?: string | undefined;
    }
  | {
      readonly status: 'connected';
      readonly since: number;
      readonly session: TransportSession;
      readonly catalog: ServerCatalog;
    }
  | { readonly status: 'restarting'; readonly error: string; readonly at: number }
  | { readonly status: 'failed'; readonly error: string }
  | { readonly status: 'sign-in-required' };

// Every status the UI knows has a state, and no state is unknown to the UI.
type Statuses = ConnectionState['status'];
export const STATUSES_MATCH: [Statuses, ServerStatus] extends [ServerStatus, Statuses] ? true : never = true;

/** The state's error line, where it has one. */
export function errorOf(state: ConnectionState): string | undefined {
  switch (state.status) {
    case 'connecting':
    case 'restarting':
    case 'failed':
      return state.error;
    default:
      return undefined;
  }
}
