import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/client';
import type { NotificationFastPath } from '../client-features/client-feature.js';
import { isJsonObject } from '../json-object.js';

/**
 * The few notifications a server may send hundreds of times a second (task
 * status while many tasks run), read before the SDK sees them.
 *
 * The SDK checks each incoming message against its JSON-RPC schemas one by
 * one (result, error, request, then notification: three failing zod parses
 * before the match) and then the method's params schema, after the stdio
 * transport parsed the envelope with the same union: about 19 KB allocated
 * per status notification, which at 500 a second is what makes
 * the host's garbage collector run and the renderer's requests wait
 * (bench/tasks.bench.ts). Here a message is first matched by hand against
 * the SDK's strict notification envelope (`jsonrpc` "2.0", a `method`,
 * object `params`, no other member, a `_meta` the SDK would accept); the fast
 * path of its method then reads the params with its own checks. Anything
 * either does not accept goes the SDK's way unchanged, so the SDK still
 * validates and reports it, and every other message costs one property read.
 */
export class InboundFastLane {
  private readonly paths = new Map<string, NotificationFastPath>();

  add(method: string, fastPath: NotificationFastPath): void {
    this.paths.set(method, fastPath);
  }

  /**
   * Puts the lane in front of the SDK on a connected transport (before
   * that, during the handshake, every message goes the SDK's way). A
   * transport of ours that parses lines itself (stdio) offers `firstLook`,
   * which sees a message before even the SDK's schema parse of the
   * envelope; on any other the lane wraps the dispatch the SDK's `connect`
   * installed.
   */
  attach(transport: Transport): void {
    if (this.paths.size === 0) return;
    if (hasFirstLook(transport)) {
      transport.firstLook = (value) => this.take(value);
      return;
    }
    const sdk = transport.onmessage;
    if (sdk === undefined) return;
    transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      if (!this.take(message)) sdk(message, extra);
    };
  }

  /** True when a fast path took the message. */
  take(message: unknown): boolean {
    const notification = notificationEnvelope(message, this.paths);
    return notification !== undefined && notification.path(notification.params);
  }
}

/** A transport that shows each message as parsed JSON first (stdio/stdio-transport.ts). */
interface FirstLookTransport {
  firstLook: ((value: unknown) => boolean) | undefined;
}

function hasFirstLook(transport: Transport): transport is Transport & FirstLookTransport {
  return 'firstLook' in transport;
}

const ENVELOPE_MEMBERS = new Set(['jsonrpc', 'method', 'params']);

/** A notification with object params whose method has a fast path, as the SDK's strict schema would accept it. */
function notificationEnvelope(
  message: unknown,
  paths: ReadonlyMap<string, NotificationFastPath>,
): { path: NotificationFastPath; params: Readonly<Record<string, unknown>> } | undefined {
  if (!isJsonObject(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string')
    return undefined;
  const path = paths.get(message.method);
  if (path === undefined || !isJsonObject(message.params)) return undefined;
  for (const member in message) if (!ENVELOPE_MEMBERS.has(member)) return undefined;
  if (!acceptableMeta(message.params._meta)) return undefined;
  return { path, params: message.params };
}

/** A notification's `_meta` as the SDK's schema accepts it: an object, with a well-formed progress token and related task if any. */
function acceptableMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isJsonObject(meta)) return false;
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== 'string' && !Number.isSafeInteger(token)) return false;
  const related = meta[RELATED_TASK_META_KEY];
  return related === undefined || (isJsonObject(related) && typeof related.taskId === 'string');
}
