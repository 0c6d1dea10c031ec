import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ChatMessage } from '../../shared/model/chat.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeAnthropic, MessagesRequestBody } from '../fixtures/fake-anthropic.js';
import { INTERRUPTED_TEXT } from '../../electron/host/chat/chat-service.js';
import { TEST_KEY } from '../helpers/chat.js';
import { tempDir, writeConfig } from '../helpers/servers.js';
import { ipcUrl, pageHeaders, sessionToken } from '../helpers/headless-process.js';

const cli = fileURLToPath(new URL('../../dist/cli/mcp-host.mjs', import.meta.url));

interface Frame {
  id?: number;
  result?: { ok: boolean; value?: unknown; error?: { code: string; message: string } };
  event?: string;
  payload?: unknown;
}

/** A small client of the headless shell's WebSocket, as the renderer's bridge speaks it. */
class WsClient {
  private nextId = 1;
  readonly events: { event: string; payload: unknown }[] = [];
  private readonly waiting = new Map<number, (frame: Frame) => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as Frame;
      if (frame.id !== undefined) this.waiting.get(frame.id)?.(frame);
      else if (frame.event !== undefined) this.events.push({ event: frame.event, payload: frame.payload });
    });
  }

  /** Connects as the signed-in page of the shell at `url` does (its cookie, from the data folder's token). */
  static connect(url: string, dataDir: string): Promise<WsClient> {
    const page = new URL(url);
    const port = Number(page.port);
    const headers = pageHeaders({ port, token: sessionToken(dataDir) });
    const ws = new WebSocket(ipcUrl(port), { origin: page.origin, headers });
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        resolve(new WsClient(ws));
      });
      ws.once('error', reject);
    });
  }

  async call<T>(method: string, params: unknown = {}): Promise<T> {
    const id = this.nextId++;
    const answer = new Promise<Frame>((resolve) => this.waiting.set(id, resolve));
    this.ws.send(JSON.stringify({ id, method, params }));
    const { result } = await answer;
    if (!result?.ok)
      throw new Error(`${method}: ${result?.error?.code ?? '?'} ${result?.error?.message ?? ''}`);
    return result.value as T;
  }

  async waitFor(event: string, match: (payload: Record<string, unknown>) => boolean): Promise<void> {
    for (let i = 0; i < 2500; i++) {
      if (this.events.some((e) => e.event === event && match(e.payload as Record<string, unknown>))) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`timed out waiting for ${event}`);
  }

  close(): void {
    this.ws.close();
  }
}

/** Starts `mcp-host serve` with its own data folder; resolves with the process and its URL. */
function serve(dataDir: string, config: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--config', config], {
    env: { ...process.env, XDG_CONFIG_HOME: dataDir, APPDATA: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /Open: (\S+)/.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => {
      reject(new Error(`serve exited with ${String(code)}: ${out}`));
    });
  });
}

let fake: FakeAnthropic | undefined;
let running: ChildProcess | undefined;
beforeAll(() => {
  if (!existsSync(cli)) throw new Error('dist/cli/mcp-host.mjs is missing: run `npm run build` first');
});
afterEach(async () => {
  running?.kill('SIGKILL');
  running = undefined;
  await fake?.close();
  fake = undefined;
});

/** A conversation with one answered question, then a second one the host is killed (-9) while answering. */
async function killedMidAnswer(): Promise<{ dataDir: string; config: string; id: string }> {
  const api = fake ?? (fake = await startFakeAnthropic());
  const dataDir = tempDir();
  const config = writeConfig({});
  const first = await serve(dataDir, config);
  running = first.child;
  const a = await WsClient.connect(first.url, dataDir);
  await a.call('updateSettings', { baseUrl: api.url });
  await a.call('setApiKey', { key: TEST_KEY });
  const { id } = await a.call<{ id: string }>('createConversation');
  const one = await a.call<{ turnId: string }>('sendMessage', { conversationId: id, text: 'first question' });
  await a.waitFor('turnState', (p) => p.turnId === one.turnId && p.state === 'done');

  api.enqueue({ type: 'hang', text: 'This answer never fini' });
  const two = await a.call<{ turnId: string }>('sendMessage', {
    conversationId: id,
    text: 'second question',
  });
  await a.waitFor('chatDelta', (p) => p.turnId === two.turnId);
  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));
  a.close();
  return { dataDir, config, id };
}

const texts = (body: MessagesRequestBody | undefined) =>
  (body?.messages ?? []).map((m) => [m.role, m.content.map((c) => c.text ?? c.type).join(' | ')]);

describe('conversation durability', () => {
  it('kill -9 of the headless host mid-stream loses only the partial message, and says so', async () => {
    const { dataDir, config, id } = await killedMidAnswer();
    const second = await serve(dataDir, config);
    running = second.child;
    const b = await WsClient.connect(second.url, dataDir);
    const detail = await b.call<{ messages: ChatMessage[] }>('getConversation', { id });
    expect(detail.messages.map((m) => [m.role, m.blocks])).toEqual([
      ['user', [{ type: 'text', text: 'first question' }]],
      ['assistant', [{ type: 'text', text: 'You said: first question' }]],
      ['user', [{ type: 'text', text: 'second question' }]],
      ['notice', [{ type: 'notice', level: 'warning', kind: 'interrupted', text: INTERRUPTED_TEXT }]],
    ]);
    // Marked once: a second look (or a second start) adds nothing.
    expect((await b.call<{ messages: ChatMessage[] }>('getConversation', { id })).messages).toHaveLength(4);
    // The key survived too (stored by the host, not the renderer), so the turn can be retried.
    const retry = await b.call<{ turnId: string }>('retryTurn', { conversationId: id });
    await b.waitFor('turnState', (p) => p.turnId === retry.turnId && p.state === 'done');
    const after = await b.call<{ messages: ChatMessage[] }>('getConversation', { id });
    expect(after.messages.at(-1)?.blocks).toEqual([{ type: 'text', text: 'You said: second question' }]);
    b.close();
  });

  it('a new message after an interrupted turn is not merged with its unanswered question', async () => {
    const { dataDir, config, id } = await killedMidAnswer();
    const second = await serve(dataDir, config);
    running = second.child;
    const b = await WsClient.connect(second.url, dataDir);
    const three = await b.call<{ turnId: string }>('sendMessage', {
      conversationId: id,
      text: 'third question',
    });
    await b.waitFor('turnState', (p) => p.turnId === three.turnId && p.state === 'done');
    expect(texts(fake?.messageRequests().at(-1))).toEqual([
      ['user', 'first question'],
      ['assistant', 'You said: first question'],
      ['user', 'third question'],
    ]);
    // The stored conversation keeps everything, in order, for the person to read.
    const detail = await b.call<{ messages: ChatMessage[] }>('getConversation', { id });
    expect(detail.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'notice',
      'user',
      'assistant',
    ]);
    b.close();
  });
});
