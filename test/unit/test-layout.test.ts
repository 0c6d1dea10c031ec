import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The test layout of docs/development.md ("Where the tests are"):
 *   - a unit test mirrors the module it covers: `<dir>/<module>.ts` is covered by
 *     `test/unit/<dir>/<module>.test.ts`, or `test/unit/<dir>/<module>.<aspect>.test.ts`
 *     when a second file covers the same module;
 *   - test files live under test/ (and e2e/ for Playwright), never beside production code;
 *   - production folders hold no test-only code (doubles, corpora, fixtures).
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PRODUCTION = ['electron', 'renderer', 'shared'];
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mjs', '.js'];
const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;
const TEST_ONLY_NAME = /(^|[-.])(fake|fakes|mock|mocks|stub|stubs|corpus|fixture|fixtures)([-.]|$)/i;
const SKIP = new Set(['node_modules', '.git', 'dist', 'release', 'test-results', 'playwright-report']);

/** Every file under `dir` (relative to the repository, with `/`). */
function filesUnder(dir: string): string[] {
  const abs = join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => !path.split('/').some((part) => SKIP.has(part)));
}

/** The source a unit test covers, or undefined when none exists. */
function coveredSource(testPath: string): string | undefined {
  const match = /^test\/unit\/(.+)\.test\.ts$/.exec(testPath);
  if (!match?.[1]) return undefined;
  const stem = match[1];
  const lastDot = stem.lastIndexOf('.');
  const stems = lastDot > stem.lastIndexOf('/') ? [stem, stem.slice(0, lastDot)] : [stem];
  for (const candidate of stems) {
    for (const ext of SOURCE_EXTENSIONS) {
      if (existsSync(join(ROOT, candidate + ext))) return candidate + ext;
    }
  }
  return undefined;
}

/** This file checks the layout itself and covers no module. */
const SELF = 'test/unit/test-layout.test.ts';

describe('test layout', () => {
  it('every unit test mirrors the path of an existing source file', () => {
    const unit = filesUnder('test/unit').filter((path) => path !== SELF);
    const orphans = unit.filter((path) => coveredSource(path) === undefined);
    expect(orphans, 'rename to test/unit/<source path>.test.ts or <source path>.<aspect>.test.ts').toEqual(
      [],
    );
    expect(unit.length).toBeGreaterThan(70);
  });

  it('test files live under test/unit, test/integration, test/compat or e2e/ only', () => {
    const everywhere = readdirSync(ROOT, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !SKIP.has(entry.name))
      .flatMap((entry) => filesUnder(entry.name))
      .concat(readdirSync(ROOT).filter((name) => TEST_FILE.test(name)));
    const misplaced = everywhere.filter(
      (path) => TEST_FILE.test(path) && !/^(test\/(unit|integration|compat)|e2e)\//.test(path),
    );
    expect(misplaced).toEqual([]);
  });

  it('production folders hold no test-only code', () => {
    const production = PRODUCTION.flatMap(filesUnder);
    expect(production.length).toBeGreaterThan(100);
    const testOnly = production.filter((path) => {
      const name = path.slice(path.lastIndexOf('/') + 1);
      return TEST_FILE.test(name) || TEST_ONLY_NAME.test(name);
    });
    expect(testOnly, 'move test doubles and data to test/helpers/ or test/fixtures/').toEqual([]);
    const usesTestCode = production.filter(
      (path) =>
        /\.[cm]?[jt]sx?$/.test(path) &&
        /from '(vitest|@vitest\/[^']+|(\.\.\/)+test\/[^']*)'/.test(readFileSync(join(ROOT, path), 'utf8')),
    );
    expect(usesTestCode).toEqual([]);
  });

  it('the check itself tells a mirrored test from an orphan', () => {
    expect(coveredSource('test/unit/electron/host/ipc/dispatch.test.ts')).toBe(
      'electron/host/ipc/dispatch.ts',
    );
    expect(coveredSource('test/unit/renderer/src/features/consent/consent-store.answers.test.ts')).toBe(
      'renderer/src/features/consent/consent-store.ts',
    );
    expect(coveredSource('test/unit/eslint.config.test.ts')).toBe('eslint.config.js');
    expect(coveredSource('test/unit/chat-scale.test.ts')).toBeUndefined();
    expect(coveredSource('test/unit/electron/host/nowhere.aspect.test.ts')).toBeUndefined();
    expect(TEST_ONLY_NAME.test('fake-host.ts') && TEST_ONLY_NAME.test('xss-corpus.ts')).toBe(true);
    expect(TEST_ONLY_NAME.test('latest-throttle.ts') || TEST_ONLY_NAME.test('launch-spec.ts')).toBe(false);
  });
});
