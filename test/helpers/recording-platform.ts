import { NodePlatform } from '../../electron/host/node-platform.js';
import type { AttentionNote } from '../../electron/host/platform.js';

/**
 * A NodePlatform that records instead of reaching the desktop: the pages its
 * "system browser" was asked to open, and the notifications the host asked for.
 */
export class RecordingPlatform extends NodePlatform {
  readonly opened: string[] = [];
  readonly notes: AttentionNote[] = [];
  override openExternal(url: string): Promise<void> {
    this.opened.push(url);
    return Promise.resolve();
  }
  override requestAttention(note: AttentionNote): void {
    this.notes.push(note);
  }
}
