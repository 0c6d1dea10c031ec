import WebSocket from 'ws';

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
  const ws = new WebSocket(`ws://127.0.0.1:${String(port)}/ipc?token=${token}`, {
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
