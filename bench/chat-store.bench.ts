/**
 * Chat store benchmark (host core, no UI): what durability and search cost.
 *   1. committing one message (its own transaction, WAL): synchronous=NORMAL (ours) vs FULL;
 *   2. searching 20,000 messages: FTS5 (ours) vs a LIKE scan;
 *   3. loading a 5,000-message conversation (getConversation's query + parsing);
 *   4. streamed text: stream deltas in vs chatDelta events out (16 ms batching).
 * One run; prints tables of measured values and ratios, asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeltaBatcher } from '../electron/host/chat/delta-batcher.js';
import { ConversationStore } from '../electron/host/persistence/conversation-store.js';
import { openDatabase } from '../electron/host/persistence/database.js';
import type { Db } from '../electron/host/persistence/database.js';
import { ms, quantile, ratio, table } from './lib/measure.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-host-bench-'));
const WORDS = [
  'garden',
  'photosynthesis',
  'server',
  'protocol',
  'tool',
  'result',
  'answer',
  'zebra',
  'river',
];

function sentence(i: number): string {
  return (
    Array.from({ length: 40 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length] ?? 'x').join(' ') + ` item${i}`
  );
}

const p = quantile;

function commits(synchronous: 'NORMAL' | 'FULL'): number[] {
  const db = openDatabase(join(dir, `commit-${synchronous}.db`));
  db.pragma(`synchronous = ${synchronous}`);
  const store = new ConversationStore(db);
  const { id } = store.create();
  const samples: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const started = performance.now();
    store.addMessage(id, { turnId: 't', role: 'assistant', blocks: [{ type: 'text', text: sentence(i) }] });
    samples.push(performance.now() - started);
  }
  db.close();
  return samples;
}

function seed(db: Db, count: number): string {
  const store = new ConversationStore(db);
  let last = '';
  db.transaction(() => {
    for (let c = 0; c < count / 100; c++) {
      const { id } = store.create(`Conversation ${String(c)}`);
      last = id;
      for (let i = 0; i < 100; i++) {
        store.addMessage(id, {
          turnId: 't',
          role: i % 2 ? 'assistant' : 'user',
          blocks: [{ type: 'text', text: sentence(c * 100 + i) }],
        });
      }
    }
  })();
  return last;
}

function timed(run: () => unknown, times = 20): number[] {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return samples;
}

const normal = commits('NORMAL');
const full = commits('FULL');
console.log('commit one message (own transaction, WAL), 1,000 commits');
table([
  ['synchronous', 'p50', 'p99', 'p50 vs NORMAL'],
  ['NORMAL (ours)', ms(p(normal, 50)), ms(p(normal, 99)), '1.00×'],
  ['FULL', ms(p(full, 50)), ms(p(full, 99)), ratio(p(full, 50), p(normal, 50))],
]);

const db = openDatabase(join(dir, 'search.db'));
seed(db, 20_000);
const store = new ConversationStore(db);
const fts = timed(() => store.list('item19999'));
const like = timed(() =>
  db.prepare("SELECT DISTINCT conversation_id FROM messages WHERE search_text LIKE '%item19999%'").all(),
);
console.log('\nsearch 20,000 messages for one rare word');
table([
  ['method', 'p50', 'p99', 'vs FTS5'],
  ['FTS5 (ours, incl. summaries)', ms(p(fts, 50)), ms(p(fts, 99)), '1.00×'],
  ['LIKE scan (ids only)', ms(p(like, 50)), ms(p(like, 99)), ratio(p(like, 50), p(fts, 50))],
]);
db.close();

const big = openDatabase(join(dir, 'big.db'));
const bigStore = new ConversationStore(big);
const { id: bigId } = bigStore.create('big');
big.transaction(() => {
  for (let i = 0; i < 5000; i++) {
    bigStore.addMessage(bigId, {
      turnId: 't',
      role: i % 2 ? 'assistant' : 'user',
      blocks: [{ type: 'text', text: sentence(i) }],
    });
  }
})();
const load = timed(() => bigStore.messages(bigId), 10);
console.log('\nload a 5,000-message conversation');
table([
  ['p50', 'p99', 'per message (p50)'],
  [ms(p(load, 50)), ms(p(load, 99)), `${((p(load, 50) * 1000) / 5000).toFixed(2)} µs`],
]);
big.close();

const deltas = 4000;
let events = 0;
const batcher = new DeltaBatcher(() => {
  events++;
});
const streamStarted = performance.now();
for (let i = 0; i < deltas; i++) {
  batcher.push('tok ');
  if (i % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 1));
}
batcher.flush();
const streamMs = performance.now() - streamStarted;
console.log('\nstreamed text: 4,000 deltas, 1 ms pause every 20');
table([
  ['deltas in', 'chatDelta events out', 'in / out', 'stream time'],
  [String(deltas), String(events), ratio(deltas, events), ms(streamMs)],
]);

rmSync(dir, { recursive: true, force: true });
