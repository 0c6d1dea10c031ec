import { BUNDLE_CHUNK_BYTES, BUNDLE_UPLOAD_MAX_BYTES } from '../../../../shared/model/bundle.js';
import type { BundlePreview } from '../../../../shared/model/bundle.js';
import type { HostApi } from '../../../../shared/ipc/host-api.js';
import type { Result } from '../../../../shared/ipc/result.js';

/**
 * Sends a bundle file to the host in pieces (each far below a WebSocket
 * frame) and opens it there. `onProgress` gets the fraction sent.
 */
export async function uploadBundle(
  host: HostApi,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<Result<BundlePreview | null>> {
  if (file.size > BUNDLE_UPLOAD_MAX_BYTES) {
    const mib = String(Math.round(BUNDLE_UPLOAD_MAX_BYTES / (1024 * 1024)));
    return {
      ok: false,
      error: {
        code: 'invalid_params',
        message: `${file.name} is larger than the ${mib} MiB a bundle may have here`,
      },
    };
  }
  if (file.size === 0)
    return { ok: false, error: { code: 'invalid_params', message: `${file.name} is empty` } };
  let uploadId: string | undefined;
  for (let offset = 0; offset < file.size; offset += BUNDLE_CHUNK_BYTES) {
    let data: string;
    try {
      data = toBase64(new Uint8Array(await file.slice(offset, offset + BUNDLE_CHUNK_BYTES).arrayBuffer()));
    } catch {
      return { ok: false, error: { code: 'invalid_params', message: `${file.name} could not be read` } };
    }
    const piece = await host.uploadBundleChunk({
      ...(uploadId !== undefined ? { uploadId } : {}),
      fileName: file.name.slice(0, 255) || 'bundle.mcpb',
      totalBytes: file.size,
      offset,
      data,
    });
    if (!piece.ok) return piece;
    uploadId = piece.value.uploadId;
    onProgress(piece.value.received / file.size);
  }
  return host.previewBundle({ source: { kind: 'upload', uploadId: uploadId ?? '' } });
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes a bounded number of arguments.
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
