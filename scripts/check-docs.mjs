// Checks the documentation (part of `npm run lint`): README.md stays the
// front door (at most README_MAX_BYTES), and every relative link in README.md
// and docs/**/*.md points to a file inside the repository that exists, and to
// a heading that exists when it names one (#fragment). External links
// (https:, mailto: …) are not fetched.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const README_MAX_BYTES = 15_000;

/** README.md and every Markdown file under docs/, as absolute paths. */
function markdownFiles() {
  const files = [path.join(root, 'README.md')];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) files.push(full);
    }
  };
  if (existsSync(path.join(root, 'docs'))) walk(path.join(root, 'docs'));
  return files;
}

/** The text outside fenced code blocks, line by line (fenced lines become empty). */
function proseLines(text) {
  let fence = null;
  return text.split('\n').map((line) => {
    const marker = /^\s*(```|~~~)/.exec(line);
    if (marker) {
      if (fence === null) fence = marker[1];
      else if (fence === marker[1]) fence = null;
      return '';
    }
    return fence === null ? line : '';
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
function slug(heading) {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

const anchorCache = new Map();
/** The anchors a Markdown file's headings get, duplicates numbered as GitHub does. */
function anchorsOf(file) {
  let anchors = anchorCache.get(file);
  if (anchors) return anchors;
  anchors = new Set();
  const seen = new Map();
  for (const line of proseLines(readFileSync(file, 'utf8'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${String(count)}`);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

/** Link targets in a Markdown file: inline links, images and reference definitions. */
function linksOf(file) {
  const links = [];
  proseLines(readFileSync(file, 'utf8')).forEach((line, index) => {
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1], line: index + 1 });
    }
    const definition = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (definition) links.push({ target: definition[1], line: index + 1 });
  });
  return links;
}

const problems = [];
const readmeBytes = statSync(path.join(root, 'README.md')).size;
if (readmeBytes > README_MAX_BYTES) {
  problems.push(
    `README.md is ${String(readmeBytes)} bytes, more than ${String(README_MAX_BYTES)}: move detail into docs/`,
  );
}

for (const file of markdownFiles()) {
  const where = (line) => `${path.relative(root, file)}:${String(line)}`;
  for (const { target, line } of linksOf(file)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, mcp-host: …
    const [rawPath, fragment] = target.split('#', 2);
    const resolved = rawPath === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(rawPath));
    const relative = path.relative(root, resolved);
    if (relative.startsWith('..') || path.isAbsolute(relative)) {
      problems.push(`${where(line)}: ${target} points outside the repository`);
      continue;
    }
    if (!existsSync(resolved)) {
      problems.push(`${where(line)}: ${target} does not exist`);
      continue;
    }
    if (fragment !== undefined && fragment !== '' && resolved.endsWith('.md')) {
      if (!anchorsOf(resolved).has(fragment.toLowerCase())) {
        problems.push(`${where(line)}: ${target} names no heading of ${relative}`);
      }
    }
  }
}

if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  process.exit(1);
}
