import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake Messages API received. */
export interface RecordedRequest {
  readonly path: string;
  readonly apiKey: string | undefined;
  readonly body: Record<string, unknown>;
}

export interface FakeClaude {
  /** The base URL to give the Anthropic SDK. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** What the next completions answer (text, or content blocks); default "Paris." */
  reply: (body: Record<string, unknown>) => { content: unknown[]; stop_reason?: string };
  close(): Promise<void>;
}

/**
 * A local stand-in for Claude's Messages API (non-streaming `POST
 * /v1/messages`): records every request body and answers with a scripted
 * message, so tests run the real Anthropic SDK without a key.
 */
export async function startFakeClaude(): Promise<FakeClaude> {
  const requests: RecordedRequest[] = [];
  const fake: { reply: FakeClaude['reply'] } = {
    reply: () => ({ content: [{ type: 'text', text: 'Paris.' }] }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      const key = req.headers['x-api-key'];
      const bearer = req.headers.authorization?.replace(/^Bearer /, '');
      requests.push({ path: req.url ?? '', apiKey: typeof key === 'string' ? key : bearer, body });
      const { content, stop_reason } = fake.reply(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `msg_${String(requests.length)}`,
          type: 'message',
          role: 'assistant',
          model: typeof body.model === 'string' ? body.model : 'unknown',
          content,
          stop_reason: stop_reason ?? 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 5 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    requests,
    get reply() {
      return fake.reply;
    },
    set reply(next) {
      fake.reply = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
