import type { Client, McpSubscription } from '@modelcontextprotocol/client';
import { HostError } from '../errors.js';

/**
 * Resource subscriptions on a 2026-07-28 connection, which has no
 * `resources/subscribe`: the client holds one `subscriptions/listen` stream
 * whose filter names every subscribed URI, and changing the set replaces the
 * stream (the new one is open before the old one closes, so no update falls
 * in between). `notifications/resources/updated` arriving on it reach the
 * client's existing handler, exactly as unsolicited ones do on a 2025-era
 * connection.
 */
interface ListenState {
  readonly uris: Set<string>;
  subscription: McpSubscription | undefined;
  /** Changes run one at a time, in order. */
  queue: Promise<void>;
}

const states = new WeakMap<Client, ListenState>();

/** Adds `uri` to the client's listen filter; rejects if the server does not honour it. */
export function listenToResource(client: Client, uri: string): Promise<void> {
  return change(client, (uris) => uris.add(uri), uri);
}

/** Removes `uri` from the client's listen filter (closing the stream when none is left). */
export function stopListeningToResource(client: Client, uri: string): Promise<void> {
  return change(client, (uris) => uris.delete(uri));
}

/** The URIs a client currently listens to (for the tests and the log). */
export function listenedResources(client: Client): string[] {
  return [...(states.get(client)?.uris ?? [])];
}

function change(client: Client, edit: (uris: Set<string>) => void, mustHonour?: string): Promise<void> {
  let state = states.get(client);
  if (!state) {
    state = { uris: new Set(), subscription: undefined, queue: Promise.resolve() };
    states.set(client, state);
  }
  const current = state;
  const run = current.queue.then(async () => {
    const next = new Set(current.uris);
    edit(next);
    await reopen(client, current, next, mustHonour);
  });
  // A failed change must not block the ones after it.
  current.queue = run.catch(() => undefined);
  return run;
}

async function reopen(
  client: Client,
  state: ListenState,
  uris: Set<string>,
  mustHonour: string | undefined,
): Promise<void> {
  const previous = state.subscription;
  if (uris.size === 0) {
    state.uris.clear();
    state.subscription = undefined;
    await previous?.close();
    return;
  }
  const subscription = await client.listen({ resourceSubscriptions: [...uris] });
  if (
    mustHonour !== undefined &&
    subscription.honoredFilter.resourceSubscriptions?.includes(mustHonour) !== true
  ) {
    await subscription.close();
    throw new HostError('not_found', `The server did not accept a subscription to ${mustHonour}`);
  }
  state.uris.clear();
  for (const uri of uris) state.uris.add(uri);
  state.subscription = subscription;
  await previous?.close();
  // The stream broke (not closed by us, not ended by the server): listen again, once per break.
  void subscription.closed.then((how) => {
    if (how !== 'remote' || state.subscription !== subscription || state.uris.size === 0) return;
    state.subscription = undefined;
    change(client, () => undefined).catch(() => undefined);
  });
}
