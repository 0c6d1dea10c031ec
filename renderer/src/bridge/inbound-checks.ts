import { events, requests } from '../../../shared/ipc/contract.js';
import type { EventName, RequestName, RequestResult } from '../../../shared/ipc/contract.js';
import { ServerFrameSchema } from '../../../shared/ipc/wire.js';
import type { ServerFrame } from '../../../shared/ipc/wire.js';

/** A value that passed its schema, or the schema's issues (for the console). */
export type Checked<T> = { ok: true; value: T } | { ok: false; issues: unknown };

/**
 * The checks the WebSocket bridge applies to everything the host sends: the
 * frame, each event's payload and each answer's value, with the contract's
 * schemas. This module is the only part of the bridge that needs zod and the
 * contract's tables, so the bridge loads it with a dynamic import while its
 * socket opens and the first screen does not wait for zod.
 */
export interface InboundChecks {
  frame(json: unknown): Checked<ServerFrame>;
  /** The payload as the listeners of `name` receive it (the contract's output type of that event). */
  event(name: EventName, payload: unknown): Checked<unknown>;
  result<K extends RequestName>(name: K, value: unknown): Checked<RequestResult<K>>;
}

function checked<T>(
  parsed: { success: true; data: T } | { success: false; error: { issues: unknown } },
): Checked<T> {
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: parsed.error.issues };
}

export const inboundChecks: InboundChecks = {
  frame: (json) => checked(ServerFrameSchema.safeParse(json)),
  event: (name, payload) => checked<unknown>(events[name].safeParse(payload)),
  result<K extends RequestName>(name: K, value: unknown): Checked<RequestResult<K>> {
    const parsed = checked<unknown>(requests[name].result.safeParse(value));
    // requests[name] is the schema of K, but TypeScript widens it to the union of all rows.
    return parsed as Checked<RequestResult<K>>;
  },
};
