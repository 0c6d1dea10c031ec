import { useId } from 'react';
import type { Ref } from 'react';
import type { DraftValue, FormField } from '../../../../shared/model/elicitation-form.js';
import { FieldNotes } from '../../common/field-notes.js';
import { ServerText } from '../../common/server-text.js';
import { revealInvisible } from '../../../../shared/text/invisible.js';

interface Props {
  field: FormField;
  value: DraftValue | undefined;
  error: string | undefined;
  onChange: (value: DraftValue) => void;
  onBlur: () => void;
  inputRef?: Ref<HTMLInputElement & HTMLSelectElement> | undefined;
}

const FORMAT_PLACEHOLDERS = {
  email: 'name@example.com',
  uri: 'https://…',
  date: 'YYYY-MM-DD',
  'date-time': '2025-01-31T14:30:00Z',
} as const;

/** One field of an elicitation form: label, control for its kind, hint, inline error. */
export function FormFieldControl({ field, value, error, onChange, onBlur, inputRef }: Props) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const hint = hintOf(field);
  const describedBy = [hint !== undefined ? hintId : '', error !== undefined ? errorId : '']
    .filter(Boolean)
    .join(' ');
  const aria = {
    'aria-invalid': error !== undefined ? true : undefined,
    'aria-describedby': describedBy === '' ? undefined : describedBy,
    'aria-required': field.required ? true : undefined,
  };
  const text = typeof value === 'string' ? value : '';

  const header = (
    <div className="field__header">
      {field.kind === 'multiselect' ? (
        <span className="field__label" id={`${id}-label`}>
          <ServerText text={field.label} />
        </span>
      ) : field.kind === 'boolean' ? null : (
        <label htmlFor={id} className="field__label">
          <ServerText text={field.label} />
        </label>
      )}
      {field.kind !== 'boolean' && (
        <span className="field__optional">{field.required ? 'Required' : 'Optional'}</span>
      )}
    </div>
  );

  let control;
  switch (field.kind) {
    case 'boolean':
      control = (
        <label className="checkbox">
          <input
            id={id}
            ref={inputRef}
            type="checkbox"
            checked={value === true}
            onChange={(event) => {
              onChange(event.target.checked);
            }}
            onBlur={onBlur}
            {...aria}
          />
          <ServerText text={field.label} />
        </label>
      );
      break;
    case 'select':
      control = (
        <select
          id={id}
          ref={inputRef}
          className="field__control"
          value={text}
          onChange={(event) => {
            onChange(event.target.value);
          }}
          onBlur={onBlur}
          {...aria}
        >
          <option value="">{field.required ? 'Choose…' : '(none)'}</option>
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {revealInvisible(o.label)}
            </option>
          ))}
        </select>
      );
      break;
    case 'multiselect': {
      const chosen: readonly string[] = Array.isArray(value) ? (value as readonly string[]) : [];
      control = (
        <div className="choice-group" role="group" aria-labelledby={`${id}-label`} {...aria}>
          {field.options.map((o, i) => (
            <label key={o.value} className="checkbox">
              <input
                ref={i === 0 ? inputRef : undefined}
                type="checkbox"
                checked={chosen.includes(o.value)}
                onChange={(event) => {
                  onChange(event.target.checked ? [...chosen, o.value] : chosen.filter((v) => v !== o.value));
                }}
                onBlur={onBlur}
              />
              <ServerText text={o.label} />
            </label>
          ))}
        </div>
      );
      break;
    }
    case 'number':
      control = (
        <input
          id={id}
          ref={inputRef}
          className="field__control"
          type="number"
          inputMode={field.integer ? 'numeric' : 'decimal'}
          step={field.integer ? 1 : 'any'}
          min={field.minimum}
          max={field.maximum}
          value={text}
          onChange={(event) => {
            onChange(event.target.value);
          }}
          onBlur={onBlur}
          {...aria}
        />
      );
      break;
    case 'text':
      control = (
        <input
          id={id}
          ref={inputRef}
          className="field__control"
          type={
            field.format === 'date'
              ? 'date'
              : field.format === 'email'
                ? 'email'
                : field.format === 'uri'
                  ? 'url'
                  : 'text'
          }
          placeholder={field.format !== undefined ? FORMAT_PLACEHOLDERS[field.format] : undefined}
          minLength={field.minLength}
          maxLength={field.maxLength}
          autoComplete="off"
          spellCheck={false}
          value={text}
          onChange={(event) => {
            onChange(event.target.value);
          }}
          onBlur={onBlur}
          {...aria}
        />
      );
      break;
  }

  return (
    <div className={`field${error !== undefined ? ' field--invalid' : ''}`}>
      {header}
      {control}
      <FieldNotes hint={hint} hintId={hintId} error={error} errorId={errorId} />
    </div>
  );
}

function hintOf(field: FormField): string | undefined {
  const bits: string[] = [];
  if (field.description !== undefined && field.description !== '')
    bits.push(revealInvisible(field.description));
  if (field.kind === 'number') {
    const range =
      field.minimum !== undefined && field.maximum !== undefined
        ? `${String(field.minimum)}–${String(field.maximum)}`
        : field.minimum !== undefined
          ? `at least ${String(field.minimum)}`
          : field.maximum !== undefined
            ? `at most ${String(field.maximum)}`
            : '';
    if (range !== '') bits.push(`${field.integer ? 'Whole number' : 'Number'}, ${range}`);
  }
  if (field.kind === 'multiselect' && (field.minItems !== undefined || field.maxItems !== undefined)) {
    bits.push(
      field.minItems !== undefined && field.maxItems !== undefined
        ? `Choose ${String(field.minItems)} to ${String(field.maxItems)}`
        : field.minItems !== undefined
          ? `Choose at least ${String(field.minItems)}`
          : `Choose at most ${String(field.maxItems ?? 0)}`,
    );
  }
  return bits.length > 0 ? bits.join(' · ') : undefined;
}
