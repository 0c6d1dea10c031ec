/**
 * The only link targets the chat renders: absolute http(s) and mailto URLs.
 * Everything else (javascript:, data:, vbscript:, file:, relative paths that
 * would resolve against the host's own origin) becomes "" and is drawn as
 * plain text. Browsers ignore tabs and newlines inside a scheme and accept
 * leading spaces or control characters, so those are stripped before the
 * check, and the check is on the parsed URL, not on a prefix of the text.
 */
export function safeLinkUrl(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what browsers drop
  const cleaned = value.replace(/[\u0000-\u0020\u007f]+/g, '');
  let url: URL;
  try {
    url = new URL(cleaned);
  } catch {
    return '';
  }
  return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url.href : '';
}
