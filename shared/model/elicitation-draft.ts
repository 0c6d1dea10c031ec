import type { FormField, StringFormat } from './elicitation-form.js';

/** The draft a person edits in an elicitation form: defaults, checks, and the content sent back. */

export type DraftValue = string | boolean | readonly string[];
export type FormDraft = Readonly<Record<string, DraftValue>>;

/** The value sent to the server for one field. */
export type ContentValue = string | number | boolean | string[];
export type FormContent = Record<string, ContentValue>;

/** The draft a form starts with: every default applied, everything else empty. */
export function initialDraft(fields: readonly FormField[]): FormDraft {
  const draft: Record<string, DraftValue> = {};
  for (const field of fields) {
    switch (field.kind) {
      case 'text':
        draft[field.name] = field.default ?? '';
        break;
      case 'number':
        draft[field.name] = field.default !== undefined ? String(field.default) : '';
        break;
      case 'boolean':
        draft[field.name] = field.default ?? false;
        break;
      case 'select':
        draft[field.name] = field.default ?? '';
        break;
      case 'multiselect':
        draft[field.name] = [...(field.default ?? [])];
        break;
    }
  }
  return draft;
}

export type FormCheck =
  { ok: true; content: FormContent } | { ok: false; errors: Readonly<Record<string, string>> };

/**
 * Validates a draft and turns it into the content to send: numbers parsed,
 * empty optional fields left out. Errors are keyed by field name, one line each.
 */
export function checkDraft(fields: readonly FormField[], draft: FormDraft): FormCheck {
  const content: FormContent = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const raw = draft[field.name];
    const result = checkField(field, raw);
    if ('error' in result) errors[field.name] = result.error;
    else if (result.value !== undefined) content[field.name] = result.value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, content };
}

type FieldResult = { value: ContentValue | undefined } | { error: string };

function checkField(field: FormField, raw: DraftValue | undefined): FieldResult {
  const missing = (): FieldResult =>
    field.required ? { error: 'This field is required' } : { value: undefined };
  switch (field.kind) {
    case 'boolean':
      return { value: raw === true };
    case 'multiselect': {
      const chosen = Array.isArray(raw) ? raw.filter((v): v is string => typeof v === 'string') : [];
      const allowed = new Set(field.options.map((o) => o.value));
      if (chosen.some((v) => !allowed.has(v))) return { error: 'Not one of the choices' };
      if (chosen.length === 0 && !field.required && field.minItems === undefined) return { value: undefined };
      if (field.minItems !== undefined && chosen.length < field.minItems)
        return { error: `Choose at least ${String(field.minItems)}` };
      if (field.maxItems !== undefined && chosen.length > field.maxItems)
        return { error: `Choose at most ${String(field.maxItems)}` };
      if (chosen.length === 0 && field.required) return { error: 'This field is required' };
      return { value: [...chosen] };
    }
    case 'select': {
      const value = typeof raw === 'string' ? raw : '';
      if (value === '') return missing();
      if (!field.options.some((o) => o.value === value)) return { error: 'Not one of the choices' };
      return { value };
    }
    case 'number': {
      const textValue = typeof raw === 'string' ? raw.trim() : '';
      if (textValue === '') return missing();
      const value = Number(textValue);
      if (!Number.isFinite(value)) return { error: 'Enter a number' };
      if (field.integer && !Number.isInteger(value)) return { error: 'Enter a whole number' };
      if (field.minimum !== undefined && value < field.minimum)
        return { error: `Must be at least ${String(field.minimum)}` };
      if (field.maximum !== undefined && value > field.maximum)
        return { error: `Must be at most ${String(field.maximum)}` };
      return { value };
    }
    case 'text': {
      const value = typeof raw === 'string' ? raw : '';
      if (value === '') return missing();
      if (field.minLength !== undefined && value.length < field.minLength)
        return { error: `At least ${String(field.minLength)} characters` };
      if (field.maxLength !== undefined && value.length > field.maxLength)
        return { error: `At most ${String(field.maxLength)} characters` };
      if (field.format !== undefined && !matchesFormat(field.format, value))
        return { error: FORMAT_ERRORS[field.format] };
      return { value };
    }
  }
}

const FORMAT_ERRORS: Record<StringFormat, string> = {
  email: 'Enter an email address (name@example.com)',
  uri: 'Enter a full URL (https://…)',
  date: 'Enter a date (YYYY-MM-DD)',
  'date-time': 'Enter a date and time (YYYY-MM-DDThh:mm:ssZ)',
};

/** Whether a string has the given JSON Schema format (the four elicitation allows). */
export function matchesFormat(format: StringFormat, value: string): boolean {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
    case 'uri':
      return /^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/.test(value) && canParseUrl(value);
    case 'date': {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      return m !== null && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]));
    }
    case 'date-time': {
      const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/.exec(
        value,
      );
      return (
        m !== null &&
        isRealDate(Number(m[1]), Number(m[2]), Number(m[3])) &&
        Number(m[4]) < 24 &&
        Number(m[5]) < 60
      );
    }
  }
}

function canParseUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Re-checks content that arrived from elsewhere (the renderer, a script)
 * against the fields, after filling in every omitted field that has a
 * default (SEP-1034: a client applies schema defaults to what it returns).
 */
export function completeContent(
  fields: readonly FormField[],
  content: Readonly<Record<string, unknown>>,
): FormCheck {
  const draft: Record<string, DraftValue> = {};
  for (const field of fields) {
    const value = field.name in content ? content[field.name] : undefined;
    draft[field.name] = toDraftValue(field, value === undefined ? field.default : value);
  }
  const extra: Record<string, string> = {};
  for (const key of Object.keys(content)) {
    const field = fields.find((f) => f.name === key);
    if (!field) extra[key] = 'Not a field of this form';
    else if (!hasValueType(field, content[key])) extra[key] = `Expected ${VALUE_TYPES[field.kind]}`;
  }
  const check = checkDraft(fields, draft);
  if (Object.keys(extra).length > 0)
    return { ok: false, errors: { ...(check.ok ? {} : check.errors), ...extra } };
  return check;
}

const VALUE_TYPES: Record<FormField['kind'], string> = {
  text: 'a string',
  select: 'a string',
  number: 'a number',
  boolean: 'true or false',
  multiselect: 'a list of strings',
};

function hasValueType(field: FormField, value: unknown): boolean {
  if (value === undefined) return true;
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number';
    case 'multiselect':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    default:
      return typeof value === 'string';
  }
}

function toDraftValue(field: FormField, value: unknown): DraftValue {
  switch (field.kind) {
    case 'boolean':
      return value === true;
    case 'multiselect':
      return Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : '\u0000')) : [];
    case 'number':
      return typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
    default:
      return typeof value === 'string' ? value : '';
  }
}

/** One line naming the first problems, for errors that go back to a server or a log. */
export function describeErrors(errors: Readonly<Record<string, string>>): string {
  return Object.entries(errors)
    .slice(0, 3)
    .map(([name, message]) => `${name}: ${message}`)
    .join('; ');
}
