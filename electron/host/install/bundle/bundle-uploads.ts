import { randomBytes } from 'node:crypto';
import { HostError } from '../../errors.js';

/**
 * Bundles the page sends in pieces (the headless shell's page cannot hand
 * the host a path, and one WebSocket frame should stay small). Bounded: the
 * declared size, at most two uploads at a time, forgotten after ten quiet
 * minutes. The pieces must arrive in order.
 */

export interface UploadChunk {
  uploadId?: string | undefined;
  fileName: string;
  totalBytes: number;
  offset: number;
  data: string;
}

interface Upload {
  fileName: string;
  totalBytes: number;
  chunks: Buffer[];
  received: number;
  touched: number;
}

const MAX_UPLOADS = 2;
const IDLE_MS = 10 * 60_000;

export class BundleUploads {
  private readonly uploads = new Map<string, Upload>();

  constructor(private readonly now: () => number = Date.now) {}

  append(chunk: UploadChunk): { uploadId: string; received: number } {
    this.expire();
    const bytes = Buffer.from(chunk.data, 'base64');
    let id = chunk.uploadId;
    let upload = id !== undefined ? this.uploads.get(id) : undefined;
    if (id === undefined) {
      if (chunk.offset !== 0) throw new HostError('invalid_params', 'An upload starts at offset 0');
      while (this.uploads.size >= MAX_UPLOADS) {
        const [oldest] = this.uploads.keys();
        if (oldest !== undefined) this.uploads.delete(oldest);
      }
      id = randomBytes(16).toString('base64url');
      upload = {
        fileName: chunk.fileName,
        totalBytes: chunk.totalBytes,
        chunks: [],
        received: 0,
        touched: 0,
      };
      this.uploads.set(id, upload);
    }
    if (!upload) throw new HostError('not_found', 'The upload was interrupted; open the bundle again');
    if (chunk.offset !== upload.received || chunk.totalBytes !== upload.totalBytes)
      throw new HostError('invalid_params', 'The upload arrived out of order; open the bundle again');
    if (upload.received + bytes.length > upload.totalBytes)
      throw new HostError('invalid_params', 'The upload is larger than announced');
    upload.chunks.push(bytes);
    upload.received += bytes.length;
    upload.touched = this.now();
    return { uploadId: id, received: upload.received };
  }

  /** A complete upload's bytes (and forgets it). */
  take(uploadId: string): { fileName: string; bytes: Buffer } {
    const upload = this.uploads.get(uploadId);
    if (!upload) throw new HostError('not_found', 'The upload was interrupted; open the bundle again');
    if (upload.received !== upload.totalBytes)
      throw new HostError('invalid_params', 'The upload is not complete; open the bundle again');
    this.uploads.delete(uploadId);
    return { fileName: upload.fileName, bytes: Buffer.concat(upload.chunks) };
  }

  private expire(): void {
    const now = this.now();
    for (const [id, upload] of this.uploads) if (now - upload.touched > IDLE_MS) this.uploads.delete(id);
  }
}
