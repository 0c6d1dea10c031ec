import { NodePlatform } from '../../electron/host/node-platform.js';

/** A NodePlatform whose "system browser" records the pages it was asked to open instead of opening them. */
export class RecordingPlatform extends NodePlatform {
  readonly opened: string[] = [];
  override openExternal(url: string): Promise<void> {
    this.opened.push(url);
    return Promise.resolve();
  }
}
