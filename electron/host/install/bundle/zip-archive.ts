import { crc32, inflateRaw } from 'node:zlib';
import { promisify } from 'node:util';
import { HostError } from '../../errors.js';

/**
 * A bounded, read-only view of a zip archive held in memory (a .mcpb bundle
 * is a zip). Written for hostile input rather than taken from a general zip
 * library, because each of these is a way to attack an installer:
 *
 * - names that leave the target folder (`../x`, `/etc/x`, `C:\x`, `\\host`),
 *   or two names that land on the same file on a case-insensitive disk;
 * - symbolic links (a link to `~/.ssh` followed by a file written through it);
 * - a zip bomb: a few kilobytes that inflate to gigabytes. Every entry is
 *   inflated with zlib's `maxOutputLength` set to the size its header
 *   declares, the declared sizes together are capped, and the CRC is checked;
 * - encrypted entries, unknown compression, ZIP64 and multi-disk archives,
 *   which a bundle never needs, are refused rather than half-understood.
 */

const inflate = promisify(inflateRaw);

export interface ZipLimits {
  /** Most entries (files and folders). */
  maxEntries: number;
  /** Most bytes all entries inflate to together. */
  maxTotalBytes: number;
  /** Most bytes one entry inflates to. */
  maxEntryBytes: number;
}

/** Generous for a Node server with its node_modules, far below what would hurt the machine. */
export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 50_000,
  maxTotalBytes: 1024 * 1024 * 1024,
  maxEntryBytes: 256 * 1024 * 1024,
};

export interface ZipEntry {
  /** Forward-slash path inside the archive, checked safe; folders end with "/". */
  name: string;
  directory: boolean;
  /** Unix permission bits when the archive was made on Unix, else undefined. */
  mode: number | undefined;
  method: 0 | 8;
  compressedSize: number;
  size: number;
  crc: number;
  /** Offset of the entry's local header. */
  headerOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;

function notABundle(why: string): HostError {
  return new HostError('invalid_params', `This file is not a valid bundle: ${why}`);
}

/** The archive's entries, read from its central directory and checked before anything is inflated. */
export function readZipEntries(data: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipEntry[] {
  const eocd = findEndOfCentralDirectory(data);
  const disk = data.readUInt16LE(eocd + 4);
  const count = data.readUInt16LE(eocd + 10);
  const size = data.readUInt32LE(eocd + 12);
  const offset = data.readUInt32LE(eocd + 16);
  if (disk !== 0 || data.readUInt16LE(eocd + 8) !== count)
    throw notABundle('archives split over several disks are not supported');
  if (count === 0xffff || offset === 0xffffffff) throw notABundle('ZIP64 archives are not supported');
  if (count > limits.maxEntries)
    throw notABundle(`it holds ${String(count)} entries, more than the ${String(limits.maxEntries)} allowed`);
  if (offset + size > eocd) throw notABundle('its central directory is damaged');

  const entries: ZipEntry[] = [];
  const seen = new Set<string>();
  let total = 0;
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || data.readUInt32LE(at) !== CENTRAL_SIGNATURE)
      throw notABundle('its central directory is damaged');
    const madeBy = data.readUInt8(at + 5);
    const flags = data.readUInt16LE(at + 8);
    const method = data.readUInt16LE(at + 10);
    const crc = data.readUInt32LE(at + 16);
    const compressedSize = data.readUInt32LE(at + 20);
    const entrySize = data.readUInt32LE(at + 24);
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    const external = data.readUInt32LE(at + 38);
    const headerOffset = data.readUInt32LE(at + 42);
    if (at + 46 + nameLength > eocd) throw notABundle('its central directory is damaged');
    const rawName = data.subarray(at + 46, at + 46 + nameLength);
    // Bit 11: UTF-8 names. Without it the name is CP437; only ASCII is accepted then.
    const name = rawName.toString((flags & 0x800) !== 0 ? 'utf8' : 'latin1');
    at += 46 + nameLength + extraLength + commentLength;

    if ((flags & 0x1) !== 0) throw notABundle(`"${shown(name)}" is encrypted`);
    if (method !== 0 && method !== 8)
      throw notABundle(`"${shown(name)}" uses a compression method (${String(method)}) bundles do not use`);
    if (compressedSize === 0xffffffff || entrySize === 0xffffffff)
      throw notABundle('ZIP64 archives are not supported');
    const unixMode = madeBy === 3 ? (external >>> 16) & 0xffff : undefined;
    if (unixMode !== undefined && (unixMode & S_IFMT) === S_IFLNK)
      throw notABundle(`"${shown(name)}" is a symbolic link, which bundles may not contain`);
    checkName(name);
    const directory = name.endsWith('/') || (unixMode !== undefined && (unixMode & S_IFMT) === S_IFDIR);
    const key = name.replace(/\/$/, '').normalize('NFC').toLowerCase();
    if (seen.has(key)) throw notABundle(`"${shown(name)}" appears twice`);
    seen.add(key);
    if (entrySize > limits.maxEntryBytes)
      throw notABundle(`"${shown(name)}" is larger than ${mib(limits.maxEntryBytes)} when unpacked`);
    total += entrySize;
    if (total > limits.maxTotalBytes)
      throw notABundle(`it unpacks to more than ${mib(limits.maxTotalBytes)}`);
    entries.push({
      name,
      directory,
      mode: unixMode !== undefined && unixMode !== 0 ? unixMode & 0o777 : undefined,
      method,
      compressedSize,
      size: entrySize,
      crc,
      headerOffset,
    });
  }
  return entries;
}

/**
 * One entry's bytes, inflated to at most the size its header declares and
 * checked against its CRC: a lying header fails here instead of filling the disk.
 */
export async function readZipEntry(data: Buffer, entry: ZipEntry): Promise<Buffer> {
  const at = entry.headerOffset;
  if (at + 30 > data.length || data.readUInt32LE(at) !== LOCAL_SIGNATURE)
    throw notABundle(`"${shown(entry.name)}" is damaged`);
  const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > data.length) throw notABundle(`"${shown(entry.name)}" is cut short`);
  const packed = data.subarray(start, end);
  let bytes: Buffer;
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) throw notABundle(`"${shown(entry.name)}" is damaged`);
    bytes = packed;
  } else {
    try {
      // One byte more than declared, so "larger than its header says" is told apart from "exactly".
      bytes = await inflate(packed, { maxOutputLength: Math.max(1, entry.size + 1) });
    } catch (error) {
      const tooBig =
        error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
      throw notABundle(
        tooBig
          ? `"${shown(entry.name)}" unpacks to more than its header says`
          : `"${shown(entry.name)}" is damaged`,
      );
    }
  }
  if (bytes.length !== entry.size)
    throw notABundle(`"${shown(entry.name)}" unpacks to more than its header says`);
  if (crc32(bytes) !== entry.crc) throw notABundle(`"${shown(entry.name)}" is damaged (checksum mismatch)`);
  return bytes;
}

function findEndOfCentralDirectory(data: Buffer): number {
  if (data.length < 22) throw notABundle('it is not a zip archive');
  // The record is 22 bytes plus a comment of at most 65 535 bytes, at the very end.
  const lowest = Math.max(0, data.length - 22 - 0xffff);
  for (let i = data.length - 22; i >= lowest; i--) {
    if (data.readUInt32LE(i) === EOCD_SIGNATURE) return i;
  }
  throw notABundle('it is not a zip archive');
}

/** Refuses any name that could be written outside the folder it is unpacked into. */
function checkName(name: string): void {
  const bad = (why: string) => notABundle(`the path "${shown(name)}" ${why}`);
  if (name === '' || name.length > 1024) throw bad('is empty or too long');
  // eslint-disable-next-line no-control-regex -- control characters in a file name are the point
  if (/[\u0000-\u001f\u007f]/.test(name)) throw bad('contains control characters');
  if (name.includes('\\')) throw bad('uses backslashes');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw bad('is absolute');
  if (name.includes(':')) throw bad('contains ":"');
  const parts = name.replace(/\/$/, '').split('/');
  if (parts.some((part) => part === '..' || part === '.' || part === ''))
    throw bad('leaves the bundle or is malformed');
}

const shown = (name: string): string =>
  // eslint-disable-next-line no-control-regex -- shown in a one-line error
  name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?').slice(0, 200);

const mib = (bytes: number): string => `${String(Math.round(bytes / (1024 * 1024)))} MiB`;
