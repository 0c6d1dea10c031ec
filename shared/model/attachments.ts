import { z } from 'zod';
import { ATTACHMENT_LIMITS, base64Length } from './attachment-files.js';

// The limits and checks live in a zod-free module so that the renderer's
// first screen can use them without loading zod; re-exported here so the
// attachment's schemas and rules read as one module.
export {
  ATTACHMENT_LIMITS,
  IMAGE_TYPES,
  attachmentKind,
  attachmentProblem,
  base64Length,
  formatFileSize,
} from './attachment-files.js';
export type { AttachmentKind, ImageType } from './attachment-files.js';

const FileName = z.string().trim().min(1).max(256);

/** A PDF, as base64. */
export const DocumentAttachmentSchema = z
  .object({
    type: z.literal('document'),
    name: FileName,
    mimeType: z.literal('application/pdf'),
    data: z
      .string()
      .min(1)
      .max(base64Length(ATTACHMENT_LIMITS.pdfBytes))
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'The PDF must be base64'),
  })
  .strict();

/** A text file (source code, Markdown, CSV, JSON …), as text. */
export const TextFileAttachmentSchema = z
  .object({
    type: z.literal('text-file'),
    name: FileName,
    mimeType: z.string().max(128),
    text: z.string().max(ATTACHMENT_LIMITS.textBytes),
  })
  .strict();
