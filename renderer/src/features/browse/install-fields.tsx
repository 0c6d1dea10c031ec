import { useId } from 'react';
import type { InstallField, InstallOption } from '../../../../shared/model/registry.js';
import { ServerText } from '../../common/server-text.js';
import { useSecretStorageSentence } from '../../common/secret-storage.js';

/** What the form starts with: a choice or a yes/no starts at its default; text fields start empty (the default is the placeholder and is used when left empty). */
export function initialValues(option: InstallOption | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  for (const f of option?.fields ?? []) {
    if (f.default !== undefined && (f.choices !== undefined || f.format === 'boolean'))
      values[f.id] = f.default;
  }
  return values;
}

interface InstallFieldsProps {
  fields: readonly InstallField[];
  values: Readonly<Record<string, string>>;
  onChange: (id: string, value: string) => void;
}

/** The values an install asks for: env variables, arguments, headers, URL parts. */
export function InstallFields({ fields, values, onChange }: InstallFieldsProps) {
  if (fields.length === 0) return null;
  return (
    <fieldset className="install-fields">
      <legend className="field__label">Values this server needs</legend>
      {fields.map((f) => (
        <InstallFieldControl key={f.id} field={f} value={values[f.id] ?? ''} onChange={onChange} />
      ))}
    </fieldset>
  );
}

const TARGET: Record<InstallField['target'], string> = {
  env: 'Environment variable',
  argument: 'Argument',
  header: 'Header',
  url: 'Part of the URL',
};

function InstallFieldControl({
  field,
  value,
  onChange,
}: {
  field: InstallField;
  value: string;
  onChange: (id: string, value: string) => void;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const storage = useSecretStorageSentence();
  const where = `${TARGET[field.target]}${field.secret ? ` · secret. ${storage}` : ''}`;
  const common = {
    id,
    className: 'field__control mono',
    'aria-describedby': hintId,
    'aria-required': field.required ? true : undefined,
  };
  let control;
  if (field.choices !== undefined) {
    control = (
      <select
        {...common}
        value={value}
        onChange={(event) => {
          onChange(field.id, event.target.value);
        }}
      >
        {!field.required && <option value="">(none)</option>}
        {field.required && value === '' && <option value="">Choose…</option>}
        {field.choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    );
  } else if (field.format === 'boolean') {
    control = (
      <input
        id={id}
        type="checkbox"
        aria-describedby={hintId}
        checked={value === 'true'}
        onChange={(event) => {
          onChange(field.id, event.target.checked ? 'true' : 'false');
        }}
      />
    );
  } else {
    control = (
      <input
        {...common}
        type={field.secret ? 'password' : 'text'}
        inputMode={field.format === 'number' ? 'decimal' : undefined}
        autoComplete={field.secret ? 'new-password' : 'off'}
        spellCheck={false}
        placeholder={field.placeholder ?? field.default ?? ''}
        value={value}
        onChange={(event) => {
          onChange(field.id, event.target.value);
        }}
      />
    );
  }
  return (
    <div className={`field${field.format === 'boolean' ? ' field--inline' : ''}`}>
      <div className="field__header">
        <label htmlFor={id} className="field__label mono">
          <ServerText text={field.label} />
        </label>
        {!field.required && <span className="field__optional">Optional</span>}
      </div>
      {control}
      <p id={hintId} className="field__hint">
        {where}
        {field.description !== undefined && (
          <>
            {' — '}
            <ServerText text={field.description} />
          </>
        )}
      </p>
    </div>
  );
}
