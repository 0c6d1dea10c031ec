// Resources, prompts and completions through the real host core against
// server-everything and the media fixture (stdio). One run; prints medians
// and ratios, asserts nothing. Run: npm run bench resources
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Result } from '../shared/ipc/result.js';
import { benchHost } from './lib/host.js';
import { quantile, table } from './lib/measure.js';

const require = createRequire(import.meta.url);
const everythingEntry = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const mediaEntry = resolve('test/fixtures/servers/media-server.mjs');

async function median(runs: number, run: () => Promise<Result<unknown>>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const result = await run();
    times.push(performance.now() - started);
    if (!result.ok) throw new Error(result.error.message);
  }
  return quantile(times, 50);
}

const { host, api } = benchHost({
  everything: { command: process.execPath, args: [everythingEntry, 'stdio'] },
  media: { command: process.execPath, args: [mediaEntry] },
});
await host.loadConfig();
await Promise.all([api.startServer({ name: 'everything' }), api.startServer({ name: 'media' })]);

const doc = { uri: 'demo://resource/static/document/features.md' };
const rows: [string, number][] = [
  [
    'listResources (host catalog, no server request)',
    await median(200, () => api.listResources({ server: 'everything' })),
  ],
  [
    'readResource features.md (stdio round trip)',
    await median(50, () => api.readResource({ server: 'everything', target: doc })),
  ],
  [
    'readResource through a template',
    await median(50, () =>
      api.readResource({
        server: 'everything',
        target: { uriTemplate: 'demo://resource/dynamic/text/{resourceId}', variables: { resourceId: '7' } },
      }),
    ),
  ],
  [
    'readResource 1.2 MB text (cut to 1 MB for display)',
    await median(20, () => api.readResource({ server: 'media', target: { uri: 'media://big.txt' } })),
  ],
  [
    'complete (prompt argument)',
    await median(50, () =>
      api.complete({
        server: 'everything',
        ref: { type: 'prompt', name: 'completable-prompt' },
        argument: { name: 'department', value: 'S' },
      }),
    ),
  ],
  [
    'getPrompt args-prompt',
    await median(50, () =>
      api.getPrompt({ server: 'everything', name: 'args-prompt', arguments: { city: 'Paris' } }),
    ),
  ],
];
await host.dispose();

table([['operation', 'median ms'], ...rows.map(([name, ms]) => [name, ms.toFixed(3)])]);
const get = (prefix: string) => rows.find(([name]) => name.startsWith(prefix))?.[1] ?? Number.NaN;
console.log(
  `\nread features.md / listResources: ${(get('readResource features') / get('listResources')).toFixed(1)}x`,
);
console.log(
  `read 1.2 MB / read features.md: ${(get('readResource 1.2') / get('readResource features')).toFixed(1)}x`,
);
