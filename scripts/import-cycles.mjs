// Finds import cycles among the source files of electron/, renderer/ and shared/.
// An edge is a value import or re-export (`import x from`, `import './x'`,
// `export ... from`) or a dynamic `import()`; `import type` / `export type`
// (and imports whose every name is `type`-marked) are not edges, since they
// vanish at compile time. Specifiers ending in `.js` resolve to `.ts`/`.tsx`.
// Prints each strongly connected component of more than one file (or a file
// importing itself) and one cycle through it; exits 1 when there is any.
// Usage: node scripts/import-cycles.mjs [--quiet]
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const roots = ['electron', 'renderer', 'shared'];
const quiet = process.argv.includes('--quiet');

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(ts|tsx|mts|cts)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const files = roots.filter((r) => existsSync(join(root, r))).flatMap((r) => walk(join(root, r), []));
const known = new Set(files);

function resolveSpecifier(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.(m|c)?js$/, '').replace(/\.(jsx)$/, '');
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ];
  return candidates.find((c) => known.has(c));
}

function isTypeOnlyImport(node) {
  const clause = node.importClause;
  if (!clause) return false; // side-effect import
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  if (!bindings) return false;
  if (ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function isTypeOnlyExport(node) {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return (
    clause !== undefined &&
    ts.isNamedExports(clause) &&
    clause.elements.length > 0 &&
    clause.elements.every((e) => e.isTypeOnly)
  );
}

function edgesOf(file) {
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const specs = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!isTypeOnlyImport(node)) specs.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (!isTypeOnlyExport(node)) specs.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length > 0 &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specs.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const out = new Set();
  for (const spec of specs) {
    const target = resolveSpecifier(file, spec);
    if (target) out.add(target);
  }
  return [...out];
}

const graph = new Map(files.map((f) => [f, edgesOf(f)]));

// Tarjan's strongly connected components (iterative).
let index = 0;
const indexOf = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
const components = [];
for (const start of files) {
  if (indexOf.has(start)) continue;
  const work = [[start, 0]];
  indexOf.set(start, index);
  low.set(start, index++);
  stack.push(start);
  onStack.add(start);
  while (work.length > 0) {
    const frame = work[work.length - 1];
    const [node, i] = frame;
    const next = graph.get(node);
    if (i < next.length) {
      frame[1]++;
      const to = next[i];
      if (!indexOf.has(to)) {
        indexOf.set(to, index);
        low.set(to, index++);
        stack.push(to);
        onStack.add(to);
        work.push([to, 0]);
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node), indexOf.get(to)));
      }
    } else {
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === indexOf.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1 || graph.get(node).includes(node)) components.push(component);
      }
    }
  }
}

// Elementary cycles inside each component (bounded), to count and show them.
function cyclesIn(component, limit = 1000) {
  const members = new Set(component);
  const order = [...component].sort();
  const found = [];
  for (let s = 0; s < order.length && found.length < limit; s++) {
    const start = order[s];
    const allowed = new Set(order.slice(s));
    const path = [start];
    const seen = new Set([start]);
    const dfs = (node) => {
      for (const to of graph.get(node)) {
        if (!members.has(to) || !allowed.has(to)) continue;
        if (to === start) found.push([...path, start]);
        else if (!seen.has(to)) {
          seen.add(to);
          path.push(to);
          dfs(to);
          path.pop();
          seen.delete(to);
        }
        if (found.length >= limit) return;
      }
    };
    dfs(start);
  }
  return found;
}

const rel = (f) => relative(root, f);
let total = 0;
for (const component of components) {
  const cycles = cyclesIn(component);
  total += cycles.length;
  if (!quiet) {
    console.log(`\n${component.length} files in a cycle (${cycles.length} elementary cycles):`);
    for (const f of [...component].sort()) console.log(`  ${rel(f)}`);
    for (const c of cycles.slice(0, 20)) console.log(`  cycle: ${c.map(rel).join(' → ')}`);
    if (cycles.length > 20) console.log(`  … ${cycles.length - 20} more`);
  }
}
console.log(
  `import-cycles: ${files.length} files, ${components.length} cyclic groups, ${total} elementary cycles`,
);
process.exit(components.length > 0 ? 1 : 0);
