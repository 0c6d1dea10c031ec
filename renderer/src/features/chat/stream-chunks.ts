/**
 * Splits streaming Markdown into paragraphs at blank lines outside code
 * fences. While a message streams, every chunk but the last is final, so the
 * UI renders each as its own memoized Markdown and re-parses only the tail:
 * the cost of a frame stays flat however long the answer grows.
 */
export function streamChunks(text: string): string[] {
  const chunks: string[] = [];
  let fence: string | undefined;
  let start = 0;
  let lineStart = 0;
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined) {
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
    } else if (fence === undefined && line.trim() === '' && lineStart > start && newline !== -1) {
      chunks.push(text.slice(start, lineEnd));
      start = lineEnd + 1;
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  if (start < text.length) chunks.push(text.slice(start));
  return chunks;
}
