import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
} from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/** Which handshake request the server has not answered yet ('nothing': it answered neither the probe nor initialize). */
export type HandshakeWait = 'server/discover' | 'initialize' | 'nothing' | undefined;

type RequestId = string | number;

/**
 * Follows the connect-time handshake on the wire as the SDK runs it, for what
 * the SDK does not tell its caller: which request the server is still silent
 * on (so a timeout or an exit can say so), and a reply to the version probe
 * (`server/discover`) that arrives after the SDK stopped waiting for it and
 * went on with `initialize`. Such a late reply is proof of what the server
 * speaks, which a timer never is.
 */
export class HandshakeWatch {
  private readonly probeIds = new Set<RequestId>();
  private probed = false;
  private probeAnswered = false;
  private initializeId: RequestId | undefined;
  private initializeAnswered = false;
  /** A reply to the probe that came after `initialize` was sent: the result, or undefined for an error reply. */
  onLateProbeReply?: (result: Record<string, unknown> | undefined) => void;

  /** Records an outgoing message. */
  sent(message: JSONRPCMessage): void {
    if (!isJSONRPCRequest(message)) return;
    if (message.method === 'server/discover') {
      this.probeIds.add(message.id);
      this.probed = true;
    } else if (message.method === 'initialize') this.initializeId = message.id;
  }

  /** Looks at an incoming message; true when it was a late probe reply, which nobody else may see. */
  received(message: JSONRPCMessage): boolean {
    const reply = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    if (!reply || message.id === undefined) return false;
    if (this.probeIds.has(message.id)) {
      this.probeIds.delete(message.id);
      const late = this.initializeId !== undefined;
      this.probeAnswered = true;
      if (!late) return false;
      this.onLateProbeReply?.(isJSONRPCResultResponse(message) ? message.result : undefined);
      return true;
    }
    if (message.id === this.initializeId) this.initializeAnswered = true;
    return false;
  }

  /** The handshake request still unanswered, if any. */
  get waitingFor(): HandshakeWait {
    if (this.initializeId !== undefined) {
      if (this.initializeAnswered) return undefined;
      return this.probed && !this.probeAnswered ? 'nothing' : 'initialize';
    }
    if (this.probeIds.size > 0 && !this.probeAnswered) return 'server/discover';
    return undefined;
  }

  /** True while the version probe is the only thing sent and it is unanswered. */
  get probing(): boolean {
    return this.waitingFor === 'server/discover';
  }

  /** True when the version probe was sent and no reply to it (result or error) has come, whatever followed it. */
  get probeUnanswered(): boolean {
    return this.probed && !this.probeAnswered;
  }

  /** True once the SDK fell back to the 2025 handshake on the same process (`initialize` sent). */
  get initializeSent(): boolean {
    return this.initializeId !== undefined;
  }
}
