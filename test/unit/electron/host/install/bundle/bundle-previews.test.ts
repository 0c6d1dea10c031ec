import { describe, expect, it } from 'vitest';
import { serverNameOf } from '../../../../../../electron/host/install/bundle/bundle-previews.js';

describe('names', () => {
  it('makes a manifest name a server name', () => {
    expect(serverNameOf('@acme/files-server')).toBe('acme-files-server');
    expect(serverNameOf('My Server 2')).toBe('My Server 2');
    expect(() => serverNameOf('@@@')).toThrow('cannot be used as a server name');
  });
});
