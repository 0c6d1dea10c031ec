import { describe, expect, it } from 'vitest';
import { AppInfoSchema } from '../../shared/model/app.js';
import { NodePlatform } from '../../electron/host/node-platform.js';
import { value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';
import { memoryKeychain } from '../helpers/memory-keychain.js';
import { tempDir } from '../helpers/servers.js';

/** The host's one sentence about where saved credentials go, as every sign-in and install screen shows it. */

const hosts = hostsDisposedAfterEach();
let t: TestHost | undefined;

describe('where saved credentials are kept (getAppInfo.secretStorage)', () => {
  it('without a keychain: says they are only obfuscated in a file anyone with the account can read, never "encrypted"', async () => {
    t = await hosts.create();
    const info = AppInfoSchema.parse(value(await t.api.getAppInfo({})));
    expect(info.secretStorage?.kind).toBe('obfuscated-file');
    expect(info.secretStorage?.sentence).toBe(
      "No system keychain is available, so saved credentials are only obfuscated (not encrypted) in a file in the app's data folder (0600): anyone with access to your user account can read them.",
    );
    // What the sentence says is what the platform does: the stored text is base64 of the secret.
    const platform = new NodePlatform(tempDir(), undefined, { keychain: null });
    expect(Buffer.from(await platform.encryptSecret('s3cret'), 'base64').toString()).toBe('s3cret');
  });

  it('with a keychain: says they are kept in it', async () => {
    const keychain = memoryKeychain();
    const dir = tempDir();
    t = await hosts.create({}, { platform: new NodePlatform(dir, undefined, { keychain }) });
    const info = AppInfoSchema.parse(value(await t.api.getAppInfo({})));
    expect(info.secretStorage).toEqual({
      kind: 'os-keychain',
      sentence: 'Saved credentials are kept in your system keychain.',
    });
  });
});
