/** `text` bounded to `max` characters: a longer one is cut and ends with "…" (the result is exactly `max` long). */
export function ellipsize(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
