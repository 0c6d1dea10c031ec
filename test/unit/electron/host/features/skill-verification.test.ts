import { describe, expect, it } from 'vitest';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import {
  MAX_INSTRUCTIONS_BYTES,
  entryProblem,
  formatBytes,
} from '../../../../../electron/host/features/skill-verification.js';

const DIGEST = `sha256:${'a'.repeat(64)}`;

function skill(resources: Skill['resources']): Skill {
  return { uri: 'skill://s/SKILL.md', frontmatter: { name: 's', description: 'd' }, resources };
}

const file = (uri: string, size: number) => ({ uri, digest: DIGEST, size });

describe('entryProblem (what rules a skill out before any file is read)', () => {
  it('accepts a listed skill within the limits', () => {
    expect(
      entryProblem(skill([file('skill://s/SKILL.md', 100), file('skill://s/a.md', 10)])),
    ).toBeUndefined();
    expect(entryProblem(skill([file('skill://s/SKILL.md', MAX_INSTRUCTIONS_BYTES)]))).toBeUndefined();
  });

  it('refuses unlisted files, too many files, too many bytes and a SKILL.md too large for a conversation', () => {
    expect(entryProblem(skill('dynamic'))).toBe(
      'the server does not list its files, so they cannot be checked',
    );
    const many = Array.from({ length: 513 }, (_, i) => file(`skill://s/f${String(i)}.md`, 1));
    expect(entryProblem(skill(many))).toBe("it has 513 files, over the extension's limit of 512");
    expect(
      entryProblem(skill([file('skill://s/SKILL.md', 10), file('skill://s/big.bin', 17 * 1024 * 1024)])),
    ).toBe("its files take 17.0 MB, over the extension's limit of 16.0 MB");
    expect(entryProblem(skill([file('skill://s/SKILL.md', MAX_INSTRUCTIONS_BYTES + 10 * 1024)]))).toBe(
      "its SKILL.md is 266 KB, over the host's limit of 256 KB for instructions read into a conversation",
    );
  });

  it('formats sizes for one-line reasons', () => {
    expect(formatBytes(12)).toBe('12 bytes');
    expect(formatBytes(300 * 1024)).toBe('300 KB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });
});
