/** The first non-blank line of a text, for one-line previews. */
export function firstLine(text: string | undefined): string {
  return (
    text
      ?.split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '') ?? ''
  );
}

/** "1 tool", "3 tools". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** "842 ms", "3.4 s". */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Size of base64 data once decoded, as "1.2 KB". */
export function base64Size(data: string): string {
  const bytes = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  return formatBytes(bytes);
}

/** "512 B", "1.2 KB", "3.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
