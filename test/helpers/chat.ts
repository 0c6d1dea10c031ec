import { events as eventSchemas } from '../../shared/ipc/contract.js';
import type { EventName, EventPayload } from '../../shared/ipc/contract.js';
import type { FakeAnthropic } from '../fixtures/fake-anthropic.js';
import { createTestHost, start, value, waitForEvent as waitForHostEvent } from './host.js';
import type { TestHost } from './host.js';
import type { StdioServerConfig } from '../../shared/model/config.js';

export const TEST_KEY = 'sk-ant-test-0123456789abcdef-WXYZ';

/** A host whose chat talks to the fake API, with a key set and the given servers started. */
export async function createChatHost(
  fake: FakeAnthropic,
  servers: Record<string, StdioServerConfig> = {},
  options: Parameters<typeof createTestHost>[1] = {},
): Promise<TestHost> {
  const t = await createTestHost(servers, options);
  value(await t.api.updateSettings({ baseUrl: fake.url }));
  value(await t.api.setApiKey({ key: TEST_KEY }));
  for (const name of Object.keys(servers)) await start(t.api, name);
  return t;
}

/**
 * Resolves with the first event of this name (from index `from` on) that
 * matches; the payload is parsed with the contract's schema, so a test also
 * checks that the host emits what the contract promises.
 */
export function waitForEvent<E extends EventName>(
  t: TestHost,
  event: E,
  match: (payload: EventPayload<E>) => boolean = () => true,
  from = 0,
  timeoutMs = 25_000,
): Promise<EventPayload<E>> {
  return waitForHostEvent(
    t,
    (name, raw) => {
      if (name !== event) return undefined;
      const payload = parseEvent(event, raw);
      return match(payload) ? payload : undefined;
    },
    event,
    from,
    timeoutMs,
  );
}

/** The final state of a turn: done, stopped or error. */
export function turnEnd(t: TestHost, turnId: string, from = 0): Promise<EventPayload<'turnState'>> {
  return waitForEvent(
    t,
    'turnState',
    (s) => s.turnId === turnId && (s.state === 'done' || s.state === 'stopped' || s.state === 'error'),
    from,
  );
}

export function eventsOf<E extends EventName>(t: TestHost, event: E): EventPayload<E>[] {
  return t.events.filter((e) => e.event === event).map((e) => parseEvent(event, e.payload));
}

function parseEvent<E extends EventName>(event: E, payload: unknown): EventPayload<E> {
  return eventSchemas[event].parse(payload) as EventPayload<E>;
}
