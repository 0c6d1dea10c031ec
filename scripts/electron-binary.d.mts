/** node_modules/electron, or null when the package is not installed. */
export function electronPackageDir(): string | null;
/** The executable's path, or why there is none. */
export function electronBinaryStatus():
  { binary: string; missing?: never } | { missing: string; binary?: never };
