/**
 * Runs async tasks one after another, in the order they were queued: a
 * read-change-write of a file cannot interleave with another one and lose
 * its change. A failed task does not stop the ones behind it.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    // The queue continues after a failure; the caller still sees it.
    this.tail = result.catch(() => undefined);
    return result;
  }
}

let sequence = 0;

/** A temporary file name beside `path` that no other write (of this process or another) uses. */
export function tempPathFor(path: string): string {
  sequence += 1;
  return `${path}.${String(process.pid)}.${String(sequence)}.${Math.random().toString(36).slice(2, 8)}.tmp`;
}
