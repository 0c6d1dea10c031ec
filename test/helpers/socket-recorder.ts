import WebSocket from 'ws';
import { pageCookieHeader } from '../../electron/headless/proofs.js';

/** What arrived on a socket, per event name: frames and bytes. */
export interface SocketRecord {
  frames: Map<string, number>;
  bytes: Map<string, number>;
  /** Answers to requests, by id. */
  answers: Map<number, unknown>;
  ws: WebSocket;
  send(id: number, method: string, params: unknown): void;
  close(): void;
}

/** Opens the headless IPC socket like the page does and records every frame it receives. */
export async function recordSocket(port: number, token: string): Promise<SocketRecord> {
  const ws = new WebSocket(`ws://127.0.0.1:${String(port)}/ipc`, {
    headers: { Cookie: pageCookieHeader(token, port) },
    origin: `http://127.0.0.1:${String(port)}`,
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => {
      resolve();
    });
    ws.once('error', reject);
  });
  const record: SocketRecord = {
    frames: new Map(),
    bytes: new Map(),
    answers: new Map(),
    ws,
    send: (id, method, params) => {
      ws.send(JSON.stringify({ id, method, params }));
    },
    close: () => {
      ws.close();
    },
  };
  ws.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as { id?: number; event?: string; result?: unknown };
    const key = frame.event ?? 'answer';
    record.frames.set(key, (record.frames.get(key) ?? 0) + 1);
    record.bytes.set(key, (record.bytes.get(key) ?? 0) + data.length);
    if (frame.id !== undefined) record.answers.set(frame.id, frame.result);
  });
  return record;
}

/** The call id of the endless progress stream `startFlood` starts (request 1). */
export const FLOOD_PROGRESS_CALL = 'endless-progress';

/**
 * Makes the raw fixture server "raw" flood the page: request 1 reports
 * progress every millisecond until `stopFlood`, request 2 writes 16 MB to
 * stderr and answers when done.
 */
export function startFlood(page: SocketRecord): void {
  page.send(1, 'callTool', {
    server: 'raw',
    tool: 'progress',
    argumentsJson: JSON.stringify({ steps: 0, intervalMs: 1 }),
    callId: FLOOD_PROGRESS_CALL,
  });
  page.send(2, 'callTool', {
    server: 'raw',
    tool: 'flood',
    argumentsJson: JSON.stringify({ stderrMb: 16, stdoutMb: 0 }),
  });
}

/** Cancels the progress stream of `startFlood` (request 3); request 1 is then answered. */
export function stopFlood(page: SocketRecord): void {
  page.send(3, 'cancelToolCall', { callId: FLOOD_PROGRESS_CALL });
}
