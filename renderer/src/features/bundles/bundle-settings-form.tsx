import { useId, useState } from 'react';
import type { BundleField } from '../../../../shared/model/bundle.js';
import type { BundleForm } from './bundle-form.js';
import { useHost } from '../../store/area-context.js';
import { useAppState } from '../../store/store-context.js';
import { FieldNotes } from '../../common/field-notes.js';
import { ServerText } from '../../common/server-text.js';
import { useSecretStorageSentence } from '../../common/secret-storage.js';

interface Props {
  token: string;
  fields: readonly BundleField[];
  form: BundleForm;
  errors: Record<string, string>;
  onChange: (key: string, value: string | boolean) => void;
}

/** The bundle's `user_config`: one control per setting, of the kind it declares. */
export function BundleSettingsForm({ token, fields, form, errors, onChange }: Props) {
  if (fields.length === 0) return null;
  return (
    <fieldset className="bundle-settings">
      <legend className="bundle-summary__heading">Settings</legend>
      {fields.map((field) => (
        <SettingField
          key={field.key}
          token={token}
          field={field}
          value={form[field.key] ?? ''}
          error={errors[field.key]}
          onChange={(value) => {
            onChange(field.key, value);
          }}
        />
      ))}
    </fieldset>
  );
}

/** Text that ends like a sentence, so the notes after it read as their own. */
const sentence = (text: string) =>
  text === '' || /[.!?:]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;

function SettingField({
  token,
  field,
  value,
  error,
  onChange,
}: {
  token: string;
  field: BundleField;
  value: string | boolean;
  error: string | undefined;
  onChange: (value: string | boolean) => void;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const host = useHost();
  const electron = useAppState((s) => s.appInfo?.shell === 'electron');
  const storage = useSecretStorageSentence();
  const [pickError, setPickError] = useState<string>();
  const hint = [
    sentence(field.description),
    field.stored === true ? 'A value is stored; leave empty to keep it.' : '',
    field.sensitive ? `${storage} Never shown again.`.trim() : '',
    field.multiple ? 'One per line.' : '',
    field.min !== undefined || field.max !== undefined
      ? `From ${String(field.min ?? '…')} to ${String(field.max ?? '…')}.`
      : '',
  ]
    .filter((part) => part !== '')
    .join(' ');
  const shownError = error ?? pickError;
  const describedBy =
    [hint !== '' ? hintId : '', shownError !== undefined ? errorId : ''].filter(Boolean).join(' ') ||
    undefined;
  const label = (
    <>
      <ServerText text={field.title} />
      {field.added === true && <span className="tag bundle-settings__new">New</span>}
    </>
  );

  if (field.type === 'boolean') {
    return (
      <div className="field">
        <label className="bundle-settings__check">
          <input
            type="checkbox"
            checked={value === true}
            aria-describedby={describedBy}
            onChange={(event) => {
              onChange(event.target.checked);
            }}
          />
          {label}
        </label>
        <FieldNotes hint={hint || undefined} hintId={hintId} error={error} errorId={errorId} />
      </div>
    );
  }

  const path = field.type === 'directory' || field.type === 'file';
  const common = {
    id,
    value: typeof value === 'string' ? value : '',
    className: `field__control${path ? ' mono' : ''}`,
    spellCheck: false,
    autoComplete: field.sensitive ? 'new-password' : 'off',
    'aria-invalid': shownError !== undefined ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': field.required && field.stored !== true ? true : undefined,
  };
  const pick = async () => {
    setPickError(undefined);
    const result = await host.pickBundlePath({ token, key: field.key });
    if (!result.ok) setPickError(result.error.message);
    else if (result.value.path !== null) {
      const current = typeof value === 'string' ? value.trim() : '';
      onChange(field.multiple && current !== '' ? `${current}\n${result.value.path}` : result.value.path);
    }
  };
  return (
    <div className={`field${shownError !== undefined ? ' field--invalid' : ''}`}>
      <div className="field__header">
        <label htmlFor={id} className="field__label">
          {label}
        </label>
        {!field.required && <span className="field__optional">Optional</span>}
      </div>
      <div className={path && electron ? 'bundle-settings__path' : undefined}>
        {field.multiple ? (
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
            type={field.sensitive ? 'password' : field.type === 'number' ? 'number' : 'text'}
            {...(field.type === 'number' ? { min: field.min, max: field.max } : {})}
            placeholder={
              field.stored === true
                ? 'Stored — leave empty to keep'
                : path
                  ? `Full path of the ${field.type}`
                  : undefined
            }
            onChange={(event) => {
              onChange(event.target.value);
            }}
          />
        )}
        {path && electron && (
          <button
            type="button"
            className="btn"
            onClick={() => {
              void pick();
            }}
          >
            Choose…
          </button>
        )}
      </div>
      <FieldNotes hint={hint || undefined} hintId={hintId} error={shownError} errorId={errorId} />
    </div>
  );
}
