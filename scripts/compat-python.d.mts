/** One server of test/compat/python/corpus.json. */
export interface PythonServer {
  name: string;
  /** The environment (see `environments`) it runs in; absent for uvx. */
  environment?: string;
  launch: 'script' | 'module' | 'file' | 'url' | 'uvx';
  /** launch 'script': the console script. */
  bin?: string;
  /** launch 'module': python -m <module>. */
  module?: string;
  /** launch 'file' and 'url': a file of test/compat/python/servers/. */
  file?: string;
  args?: string[];
  env?: Record<string, string>;
  /** launch 'url': the transport and the endpoint's path. */
  type?: 'http' | 'sse';
  path?: string;
  sdk: string;
  exercises: string;
}
export interface PythonEnvironment {
  wheels?: string[];
  requirements?: string[];
}
export interface PythonCorpus {
  environments: Record<string, PythonEnvironment>;
  servers: PythonServer[];
}
export const pythonFolder: string;
export function readPythonCorpus(): PythonCorpus;
export function which(program: string): string | undefined;
export function basePython(): { command: string; version: string } | { missing: string };
export function pythonCacheRoot(cacheRoot: string): string;
export function environmentDir(cacheRoot: string, name: string, pythonVersion: string): string;
export function environmentBin(dir: string): string;
export function installPython(
  cacheRoot: string,
  options?: { log?: (line: string) => void },
): { skipped?: string; dirs: Record<string, string> };
