import type { Attachment } from '../../../../shared/model/chat.js';
import { IMAGE_TYPES, attachmentKind, attachmentProblem } from '../../../../shared/model/attachment-files.js';
import type { AttachmentKind, ImageType } from '../../../../shared/model/attachment-files.js';

/** A file picked, pasted or dropped into the composer, read and ready to send. */
export interface PendingFile {
  readonly id: string;
  readonly name: string;
  readonly size: number;
  readonly kind: AttachmentKind;
  readonly attachment: Attachment;
  /** A data: URL for an image's thumbnail. */
  readonly preview?: string;
}

export interface ReadOutcome {
  files: PendingFile[];
  /** One line per file that could not be attached. */
  problems: string[];
}

let counter = 0;

/**
 * Checks each file against the limits before reading it (nothing big is
 * read only to be refused), then reads it: images and PDFs as base64, text
 * files as text. A file that cannot be read is named in one line.
 */
export async function readFiles(
  incoming: readonly File[],
  already: readonly PendingFile[],
): Promise<ReadOutcome> {
  const files: PendingFile[] = [];
  const problems: string[] = [];
  let bytes = already.reduce((n, f) => n + f.size, 0);
  for (const file of incoming) {
    const problem = attachmentProblem(file, bytes, already.length + files.length);
    const kind = attachmentKind(file.name, file.type);
    if (problem !== undefined || kind === undefined) {
      problems.push(problem ?? `${file.name} cannot be attached.`);
      continue;
    }
    try {
      files.push(await readOne(file, kind));
      bytes += file.size;
    } catch {
      problems.push(`${file.name} could not be read (it may have been moved or is not readable).`);
    }
  }
  return { files, problems };
}

async function readOne(file: File, kind: AttachmentKind): Promise<PendingFile> {
  const id = `file-${String(++counter)}`;
  const name = file.name || (kind === 'image' ? 'pasted image' : 'file');
  if (kind === 'text') {
    const text = await file.text();
    return {
      id,
      name,
      size: file.size,
      kind,
      attachment: { type: 'text-file', name, mimeType: file.type || 'text/plain', text },
    };
  }
  const url = await dataUrl(file);
  const data = url.slice(url.indexOf(',') + 1);
  if (kind === 'pdf') {
    return {
      id,
      name,
      size: file.size,
      kind,
      attachment: { type: 'document', name, mimeType: 'application/pdf', data },
    };
  }
  const mimeType = imageType(file);
  return {
    id,
    name,
    size: file.size,
    kind,
    preview: `data:${mimeType};base64,${data}`,
    attachment: { type: 'image', mimeType, data, name },
  };
}

function imageType(file: File): ImageType {
  const given = IMAGE_TYPES.find((t) => t === file.type.toLowerCase());
  if (given !== undefined) return given;
  const ext = /\.([a-z]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  return ext === 'png'
    ? 'image/png'
    : ext === 'gif'
      ? 'image/gif'
      : ext === 'webp'
        ? 'image/webp'
        : 'image/jpeg';
}

function dataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      resolve(typeof reader.result === 'string' ? reader.result : '');
    };
    reader.onerror = () => {
      reject(reader.error ?? new Error('read failed'));
    };
    reader.readAsDataURL(file);
  });
}
