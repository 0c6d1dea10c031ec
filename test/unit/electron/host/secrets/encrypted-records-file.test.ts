import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { EncryptedRecordsFile } from '../../../../../electron/host/secrets/encrypted-records-file.js';
import { tempDir } from '../../../../helpers/servers.js';

/** A platform whose "encryption" is reversible and recognisable, and which records what it was told to forget. */
function fakePlatform() {
  let counter = 0;
  const forgotten: string[] = [];
  return {
    forgotten,
    encryptSecret: (plain: string) =>
      Promise.resolve(`enc${String(++counter)}:${Buffer.from(plain).toString('base64')}`),
    decryptSecret: (stored: string) => {
      const [, body] = stored.split(':');
      if (body === undefined) return Promise.reject(new Error('not ours'));
      return Promise.resolve(Buffer.from(body, 'base64').toString());
    },
    forgetSecret: (stored: string) => {
      forgotten.push(stored);
      return Promise.resolve();
    },
  };
}

const Schema = z.record(z.string(), z.string());

describe('EncryptedRecordsFile', () => {
  it('writes only encrypted records, reads them back in a new process, and forgets replaced blobs', async () => {
    const path = join(tempDir(), 'records.json');
    const platform = fakePlatform();
    const file = new EncryptedRecordsFile(path, platform, Schema);
    await file.read();
    await file.write(new Map([['a', { KEY: 'sk-plain-secret' }]]));
    expect(readFileSync(path, 'utf8')).not.toContain('sk-plain-secret');
    await file.write(new Map([['a', { KEY: 'sk-second' }]]));
    expect(platform.forgotten).toHaveLength(1);

    const again = new EncryptedRecordsFile(path, platform, Schema);
    expect(Object.fromEntries(await again.read())).toEqual({ a: { KEY: 'sk-second' } });
    await again.write(new Map([['a', undefined]]));
    expect(platform.forgotten).toHaveLength(2);
    expect(await new EncryptedRecordsFile(path, platform, Schema).read()).toEqual(new Map());
  });

  it('leaves out a record it cannot decrypt or that does not match, and a file that is not its own', async () => {
    const path = join(tempDir(), 'records.json');
    const platform = fakePlatform();
    const good = await platform.encryptSecret(JSON.stringify({ K: 'v' }));
    const wrongShape = await platform.encryptSecret(JSON.stringify({ K: 42 }));
    writeFileSync(
      path,
      JSON.stringify({ version: 1, servers: { good, gone: 'keychain-entry-gone', wrongShape } }),
    );
    expect(Object.fromEntries(await new EncryptedRecordsFile(path, platform, Schema).read())).toEqual({
      good: { K: 'v' },
    });
    writeFileSync(path, '{"not": "ours"');
    expect(await new EncryptedRecordsFile(path, platform, Schema).read()).toEqual(new Map());
  });
});
