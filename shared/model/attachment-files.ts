/**
 * Files the person attaches to a chat message (paste, drop, or pick): which
 * kinds Claude takes and how big each may be. The renderer checks a file
 * against these before it reads it (one clear line when it does not fit);
 * the host checks the same limits again on what arrives.
 *
 * The limits follow the Messages API (an image at most 5 MB; a request at
 * most 32 MB) and the app's own pipe: the headless shell's WebSocket frame
 * is 20 MiB, and base64 grows a file by a third, so one message carries at
 * most 12 MiB of files.
 */
export const ATTACHMENT_LIMITS = {
  imageBytes: 5 * 1024 * 1024,
  pdfBytes: 10 * 1024 * 1024,
  textBytes: 1024 * 1024,
  totalBytes: 12 * 1024 * 1024,
  files: 20,
} as const;

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** File-name endings read as text when the browser gives no text/* type (source code, data). */
const TEXT_EXTENSIONS = new Set([
  'txt',
  'md',
  'markdown',
  'csv',
  'tsv',
  'json',
  'jsonl',
  'yaml',
  'yml',
  'toml',
  'ini',
  'xml',
  'html',
  'htm',
  'css',
  'js',
  'mjs',
  'cjs',
  'ts',
  'tsx',
  'jsx',
  'py',
  'rb',
  'go',
  'rs',
  'java',
  'kt',
  'c',
  'h',
  'cc',
  'cpp',
  'hpp',
  'cs',
  'swift',
  'php',
  'sh',
  'bash',
  'zsh',
  'sql',
  'log',
  'env',
  'gitignore',
  'dockerfile',
  'tex',
  'rst',
  'svg',
  'vue',
  'svelte',
  'lua',
  'r',
  'scala',
  'pl',
  'conf',
  'cfg',
  'properties',
  'graphql',
  'proto',
]);

export type AttachmentKind = 'image' | 'pdf' | 'text';

/** What kind of attachment a file is, from its type and name; undefined when Claude cannot take it. */
export function attachmentKind(name: string, mimeType: string): AttachmentKind | undefined {
  const type = mimeType.toLowerCase();
  if ((IMAGE_TYPES as readonly string[]).includes(type)) return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (
    type.startsWith('text/') ||
    /^application\/(json|xml|x-yaml|yaml|toml|javascript|x-sh|sql)/.test(type)
  ) {
    return 'text';
  }
  const ext = /\.([^.\\/]+)$/.exec(name.toLowerCase())?.[1] ?? (name.startsWith('.') ? name.slice(1) : '');
  if (ext === 'pdf') return 'pdf';
  if (['png', 'jpg', 'jpeg', 'gif', 'webp'].includes(ext) && type === '') return 'image';
  return TEXT_EXTENSIONS.has(ext) ? 'text' : undefined;
}

const KIND_LIMIT: Record<AttachmentKind, number> = {
  image: ATTACHMENT_LIMITS.imageBytes,
  pdf: ATTACHMENT_LIMITS.pdfBytes,
  text: ATTACHMENT_LIMITS.textBytes,
};

/** "2.4 MB", "512 KB", "18 bytes". */
export function formatFileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${String(Math.round(bytes / 1024))} KB`;
  return `${String(bytes)} bytes`;
}

/**
 * Why a file cannot be attached, as one line naming it, or undefined when it
 * can. `alreadyBytes` is the size of what is attached already.
 */
export function attachmentProblem(
  file: { name: string; type: string; size: number },
  alreadyBytes = 0,
  alreadyCount = 0,
): string | undefined {
  const kind = attachmentKind(file.name, file.type);
  if (!kind) {
    return `${file.name}: this kind of file cannot be sent to Claude (images, PDFs and text files only).`;
  }
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > KIND_LIMIT[kind]) {
    return `${file.name} is ${formatFileSize(file.size)}; ${kind === 'pdf' ? 'a PDF' : `an ${kind === 'image' ? 'image' : 'text file'}`} may be at most ${formatFileSize(KIND_LIMIT[kind])}.`;
  }
  if (alreadyCount >= ATTACHMENT_LIMITS.files) {
    return `${file.name}: at most ${String(ATTACHMENT_LIMITS.files)} files go with one message.`;
  }
  if (alreadyBytes + file.size > ATTACHMENT_LIMITS.totalBytes) {
    return `${file.name}: the files of one message may be at most ${formatFileSize(ATTACHMENT_LIMITS.totalBytes)} together.`;
  }
  return undefined;
}

/** Base64 characters for `bytes` bytes (padding included). */
export const base64Length = (bytes: number): number => Math.ceil(bytes / 3) * 4;
