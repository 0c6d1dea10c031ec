import { useId } from 'react';
import type { Ref } from 'react';
import { FieldNotes } from '../../common/field-notes.js';

interface FormFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** Helper text under the control. */
  hint?: string;
  /** Shown (and announced via aria-describedby) when set. */
  error?: string | undefined;
  optional?: boolean;
  multiline?: boolean;
  mono?: boolean;
  placeholder?: string;
  /** A password input (typed secrets): masked, and not offered for the browser's autofill. */
  secret?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled input or textarea with helper text and an inline error. */
export function FormField(props: FormFieldProps) {
  const {
    label,
    value,
    onChange,
    onBlur,
    hint,
    error,
    optional,
    multiline,
    mono,
    placeholder,
    secret,
    inputRef,
  } = props;
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint !== undefined ? hintId : '', error !== undefined ? errorId : ''].filter(Boolean);
  const common = {
    id,
    value,
    placeholder,
    onBlur,
    className: `field__control${mono ? ' mono' : ''}`,
    spellCheck: false,
    autoComplete: secret === true ? 'new-password' : 'off',
    'aria-invalid': error !== undefined ? true : undefined,
    'aria-describedby': describedBy.length > 0 ? describedBy.join(' ') : undefined,
  };

  return (
    <div className={`field${error !== undefined ? ' field--invalid' : ''}`}>
      <div className="field__header">
        <label htmlFor={id} className="field__label">
          {label}
        </label>
        {optional && <span className="field__optional">Optional</span>}
      </div>
      {multiline ? (
        <textarea
          {...common}
          rows={3}
          onChange={(event) => {
            onChange(event.target.value);
          }}
        />
      ) : (
        <input
          {...common}
          ref={inputRef}
          type={secret === true ? 'password' : 'text'}
          onChange={(event) => {
            onChange(event.target.value);
          }}
        />
      )}
      <FieldNotes hint={hint} hintId={hintId} error={error} errorId={errorId} />
    </div>
  );
}
