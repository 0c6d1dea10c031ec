/** Small helpers for bench files: percentiles, timing, tables, forced GC. */

/** The nearest-rank percentile `p` (0–100) of samples sorted ascending. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/** The nearest-rank percentile `p` of samples in any order. */
export function quantile(samples: readonly number[], p: number): number {
  return percentile(
    [...samples].sort((a, b) => a - b),
    p,
  );
}

/** Wall time of one synchronous run, in ms. */
export function timeMs(run: () => void): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

export function summarize(samples: readonly number[]): { p50: number; p99: number; n: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), n: sorted.length };
}

/** Prints rows as an aligned table. */
export function table(rows: readonly (readonly string[])[]): void {
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((row) => (row[col] ?? '').length))) ?? [];
  for (const row of rows) console.log(row.map((cell, col) => cell.padEnd(widths[col] ?? 0)).join('  '));
}

export const ms = (value: number): string => `${value.toFixed(3)} ms`;
export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;

/** Full GC (needs node --expose-gc, which bench/run.mjs passes). */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('Run with node --expose-gc (npm run bench does)');
  gc();
  gc();
}
