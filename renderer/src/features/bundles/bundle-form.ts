import type { BundleField, BundleValue } from '../../../../shared/model/bundle.js';

/**
 * The install form of a bundle's settings: what each control starts with
 * (the installed value on update, else the manifest's default; a secret
 * always starts empty) and the values sent to the host, with the mistakes a
 * person can see before sending (the host checks everything again).
 */

/** Text of each control; booleans are checkboxes. */
export type BundleForm = Record<string, string | boolean>;

export function initialForm(fields: readonly BundleField[]): BundleForm {
  const form: BundleForm = {};
  for (const field of fields) {
    const value = field.current ?? field.default;
    if (field.type === 'boolean') form[field.key] = value === true;
    else if (field.sensitive) form[field.key] = '';
    else form[field.key] = Array.isArray(value) ? value.join('\n') : value === undefined ? '' : String(value);
  }
  return form;
}

export interface FormOutcome {
  values: Record<string, BundleValue>;
  /** One line per field, by key. */
  errors: Record<string, string>;
}

export function formValues(fields: readonly BundleField[], form: BundleForm): FormOutcome {
  const values: Record<string, BundleValue> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const raw = form[field.key];
    if (field.type === 'boolean') {
      values[field.key] = raw === true;
      continue;
    }
    const text = typeof raw === 'string' ? raw.trim() : '';
    if (text === '') {
      // A stored secret is kept when its field is left empty.
      if (field.required && field.stored !== true) errors[field.key] = 'Required';
      continue;
    }
    if (field.type === 'number') {
      const number = Number(text);
      if (!Number.isFinite(number)) errors[field.key] = 'Enter a number';
      else if (field.min !== undefined && number < field.min)
        errors[field.key] = `At least ${String(field.min)}`;
      else if (field.max !== undefined && number > field.max)
        errors[field.key] = `At most ${String(field.max)}`;
      else values[field.key] = number;
      continue;
    }
    if (field.multiple) {
      values[field.key] = text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '');
      continue;
    }
    values[field.key] = field.sensitive ? (typeof raw === 'string' ? raw : '') : text;
  }
  return { values, errors };
}
