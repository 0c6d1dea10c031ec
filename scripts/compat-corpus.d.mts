/** One server of test/compat/corpus.json. */
export interface CorpusServer {
  name: string;
  package: string;
  version: string;
  bin: string;
  args?: string[];
  env?: Record<string, string>;
  via: 'node' | 'npx';
  /** Said by hand where the SDK cannot be read from the package's dependencies. */
  sdk?: string;
  exercises: string;
}
export function readCorpus(): CorpusServer[];
export function cacheRoot(): string;
export function corpusDir(): string;
export function isInstalled(): boolean;
export function installCorpus(options?: { log?: (line: string) => void }): string;
