/** A small rotating ring; decorative, so the surrounding text must say what is happening. */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}
