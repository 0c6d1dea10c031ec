/**
 * Orders two bundle versions the way semantic versioning does: numeric
 * major.minor.patch, then a release above its pre-releases ("1.0.0" >
 * "1.0.0-beta.2" > "1.0.0-beta.1"). Text that is not a version compares as
 * text, so the order is always defined.
 */
export function compareVersions(a: string, b: string): number {
  const left = parse(a);
  const right = parse(b);
  for (let i = 0; i < 3; i++) {
    const diff = (left.core[i] ?? 0) - (right.core[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  if (left.pre.length === 0 || right.pre.length === 0) return Math.sign(right.pre.length - left.pre.length);
  const length = Math.max(left.pre.length, right.pre.length);
  for (let i = 0; i < length; i++) {
    const x = left.pre[i];
    const y = right.pre[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    const order = comparePart(x, y);
    if (order !== 0) return order;
  }
  return 0;
}

function parse(version: string): { core: number[]; pre: string[] } {
  const [main = '', ...rest] = version.trim().replace(/^v/i, '').split('+')[0]?.split('-') ?? [];
  const core = main.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : 0));
  const pre = rest.join('-');
  return { core, pre: pre === '' ? [] : pre.split('.') };
}

function comparePart(x: string, y: string): number {
  const numeric = /^\d+$/;
  if (numeric.test(x) && numeric.test(y)) return Math.sign(Number(x) - Number(y));
  if (numeric.test(x) !== numeric.test(y)) return numeric.test(x) ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}
