import { describe, expect, it } from 'vitest';
import { readZipEntries, readZipEntry } from '../../../../../../electron/host/install/bundle/zip-archive.js';
import { BundleUploads } from '../../../../../../electron/host/install/bundle/bundle-uploads.js';
import { requests } from '../../../../../../shared/ipc/contract.js';
import { MAX_FRAME_BYTES } from '../../../../../../shared/ipc/wire.js';
import { BUNDLE_CHUNK_BYTES } from '../../../../../../shared/model/bundle.js';
import { rawZip } from '../../../../../helpers/bundles.js';

/** The bounded zip reader every bundle goes through before a byte is written. */

/** The one entry of an archive (or a test failure). */
function only<T>(items: readonly T[], at = 0): T {
  const item = items[at];
  if (item === undefined) throw new Error('no such entry');
  return item;
}

const refusal = (make: () => unknown): string => {
  try {
    make();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('zip archive', () => {
  it('reads stored and deflated entries, folders and Unix modes', async () => {
    const zip = rawZip([
      { name: 'manifest.json', data: '{"a":1}' },
      { name: 'server/', mode: 0o40755 },
      { name: 'server/run', data: 'x'.repeat(10_000), deflate: true, mode: 0o100755 },
    ]);
    const entries = readZipEntries(zip);
    expect(entries.map((e) => [e.name, e.directory, e.mode, e.size])).toEqual([
      ['manifest.json', false, 0o644, 7],
      ['server/', true, 0o755, 0],
      ['server/run', false, 0o755, 10_000],
    ]);
    expect((await readZipEntry(zip, only(entries, 2))).toString()).toBe('x'.repeat(10_000));
  });

  it.each([
    ['../up', 'the path "../up" leaves the bundle or is malformed'],
    ['a/../../up', 'the path "a/../../up" leaves the bundle or is malformed'],
    ['/abs', 'the path "/abs" is absolute'],
    ['C:/win', 'the path "C:/win" is absolute'],
    ['a\\..\\b', 'the path "a\\..\\b" uses backslashes'],
    ['a\u0000b', 'the path "a?b" contains control characters'],
    ['a//b', 'the path "a//b" leaves the bundle or is malformed'],
  ])('refuses the name %j', (name, why) => {
    expect(refusal(() => readZipEntries(rawZip([{ name, data: 'x' }])))).toBe(
      `This file is not a valid bundle: ${why}`,
    );
  });

  it('refuses links, names that collide on a case-insensitive disk, and too many or too large entries', () => {
    expect(refusal(() => readZipEntries(rawZip([{ name: 'l', data: '/etc', mode: 0o120777 }])))).toMatch(
      /"l" is a symbolic link/,
    );
    expect(
      refusal(() =>
        readZipEntries(
          rawZip([
            { name: 'Index.js', data: 'a' },
            { name: 'index.js', data: 'b' },
          ]),
        ),
      ),
    ).toMatch(/"index.js" appears twice/);
    const three = rawZip([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    const limits = { maxEntries: 2, maxTotalBytes: 100, maxEntryBytes: 60 };
    expect(refusal(() => readZipEntries(three, limits))).toMatch(/holds 3 entries, more than the 2 allowed/);
    const big = rawZip([{ name: 'a', data: 'x'.repeat(61) }]);
    expect(refusal(() => readZipEntries(big, limits))).toMatch(/"a" is larger than/);
    const total = rawZip([
      { name: 'a', data: 'x'.repeat(60) },
      { name: 'b', data: 'x'.repeat(60) },
    ]);
    expect(refusal(() => readZipEntries(total, { ...limits, maxEntries: 5 }))).toMatch(
      /unpacks to more than/,
    );
  });

  it('inflates no further than the header says and checks the CRC', async () => {
    const bomb = rawZip([
      { name: 'a', data: Buffer.alloc(8 * 1024 * 1024), deflate: true, declaredSize: 100 },
    ]);
    await expect(readZipEntry(bomb, only(readZipEntries(bomb)))).rejects.toThrow(
      '"a" unpacks to more than its header says',
    );
    const corrupt = rawZip([{ name: 'a', data: 'hello world', deflate: false }]);
    corrupt[corrupt.indexOf('hello') + 1] = 'a'.charCodeAt(0);
    await expect(readZipEntry(corrupt, only(readZipEntries(corrupt)))).rejects.toThrow('checksum mismatch');
    const garbage = rawZip([{ name: 'a', data: 'hello hello hello', deflate: true }]);
    const packed = only(readZipEntries(garbage));
    garbage.fill(0xff, 30 + 1, 30 + 1 + packed.compressedSize);
    await expect(readZipEntry(garbage, packed)).rejects.toThrow('"a" is damaged');
  });

  it('refuses files that are not zips, encrypted entries and unknown compression', () => {
    expect(refusal(() => readZipEntries(Buffer.from('plain text')))).toBe(
      'This file is not a valid bundle: it is not a zip archive',
    );
    const encrypted = rawZip([{ name: 'a', data: 'x' }]);
    encrypted.writeUInt16LE(0x801, encrypted.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 8);
    expect(refusal(() => readZipEntries(encrypted))).toMatch(/"a" is encrypted/);
    const bzip = rawZip([{ name: 'a', data: 'x' }]);
    bzip.writeUInt16LE(12, bzip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 10);
    expect(refusal(() => readZipEntries(bzip))).toMatch(/compression method \(12\)/);
  });
});

describe('bundle uploads', () => {
  const chunk = (data: string, offset: number, uploadId?: string) => ({
    ...(uploadId !== undefined ? { uploadId } : {}),
    fileName: 'a.mcpb',
    totalBytes: 6,
    offset,
    data: Buffer.from(data).toString('base64'),
  });

  it('joins pieces in order, refuses them out of order or past the announced size, and forgets idle ones', () => {
    let now = 0;
    const uploads = new BundleUploads(() => now);
    const { uploadId } = uploads.append(chunk('abc', 0));
    expect(() => uploads.append(chunk('def', 4, uploadId))).toThrow('out of order');
    expect(() => uploads.take(uploadId)).toThrow('not complete');
    const second = uploads.append(chunk('abc', 0));
    expect(uploads.append(chunk('def', 3, second.uploadId)).received).toBe(6);
    expect(() => uploads.append(chunk('g', 6, second.uploadId))).toThrow('larger than announced');
    expect(uploads.take(second.uploadId)).toEqual({ fileName: 'a.mcpb', bytes: Buffer.from('abcdef') });
    const third = uploads.append(chunk('abc', 0));
    now += 11 * 60_000;
    uploads.append(chunk('abc', 0));
    expect(() => uploads.take(third.uploadId)).toThrow('interrupted');
  });
});

describe('upload chunks and the frame cap', () => {
  it('the largest valid chunk fits in one WebSocket frame; a larger one is refused by the contract', () => {
    const data = Buffer.alloc(BUNDLE_CHUNK_BYTES, 0xab).toString('base64');
    const params = { fileName: 'a.mcpb', totalBytes: BUNDLE_CHUNK_BYTES, offset: 0, data };
    expect(requests.uploadBundleChunk.params.safeParse(params).success).toBe(true);
    const frame = Buffer.byteLength(JSON.stringify({ id: 1, method: 'uploadBundleChunk', params }), 'utf8');
    expect(frame).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    const bigger = { ...params, data: Buffer.alloc(BUNDLE_CHUNK_BYTES + 3).toString('base64') };
    expect(requests.uploadBundleChunk.params.safeParse(bigger).success).toBe(false);
  });
});
