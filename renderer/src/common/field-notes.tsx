/** A form field's hint and error lines, with the ids its control's aria-describedby names. */
export function FieldNotes({
  hint,
  hintId,
  error,
  errorId,
}: {
  hint: string | undefined;
  hintId: string;
  error: string | undefined;
  errorId: string;
}) {
  return (
    <>
      {hint !== undefined && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error !== undefined && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </>
  );
}
