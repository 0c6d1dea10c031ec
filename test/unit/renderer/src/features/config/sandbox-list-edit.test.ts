import { describe, expect, it } from 'vitest';
import {
  addToList,
  removeFromList,
} from '../../../../../../renderer/src/features/config/sandbox-list-edit.js';

describe('editing a sandbox list in the Settings tab', () => {
  it('adds a valid entry after the ones there, trimmed', () => {
    expect(addToList({ allowHosts: ['api.github.com'] }, 'allowHosts', '  *.example.com ')).toEqual({
      ok: true,
      list: ['api.github.com', '*.example.com'],
    });
    expect(addToList(undefined, 'allowRead', '~/projects')).toEqual({ ok: true, list: ['~/projects'] });
  });

  it('refuses a malformed host or path with the schema message, naming the key', () => {
    expect(addToList({ enabled: false }, 'allowHosts', 'foo bar')).toEqual({
      ok: false,
      problem: 'allowHosts: "foo bar" is not a host name (write names like api.example.com or *.example.com)',
    });
    expect(addToList(undefined, 'allowWrite', 'out')).toEqual({
      ok: false,
      problem: 'allowWrite: "out" is not a full path (start with / or ~/)',
    });
  });

  it('refuses an empty entry and one already listed', () => {
    expect(addToList(undefined, 'allowHosts', '  ')).toEqual({
      ok: false,
      problem: 'allowHosts: type a host first',
    });
    expect(addToList({ allowRead: ['/srv'] }, 'allowRead', '/srv')).toEqual({
      ok: false,
      problem: 'allowRead: "/srv" is already listed',
    });
  });

  it('removes one entry and keeps the others', () => {
    expect(removeFromList({ allowRead: ['/a', '/b', '/c'] }, 'allowRead', '/b')).toEqual(['/a', '/c']);
    expect(removeFromList(undefined, 'allowHosts', 'x')).toEqual([]);
  });
});
