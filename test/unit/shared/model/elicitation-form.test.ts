import { describe, expect, it } from 'vitest';
import {
  buildForm,
  checkDraft,
  completeContent,
  initialDraft,
  matchesFormat,
} from '../../../../shared/model/elicitation-form.js';
import type { FormField } from '../../../../shared/model/elicitation-form.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 5 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    born: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    age: { type: 'integer', minimum: 1, maximum: 100, default: 30 },
    score: { type: 'number', minimum: 0, maximum: 1 },
    ok: { type: 'boolean', default: true },
    plain: { type: 'string', enum: ['a', 'b'], default: 'a' },
    titled: {
      type: 'string',
      oneOf: [
        { const: 'x', title: 'Ex' },
        { const: 'y', title: 'Why' },
      ],
    },
    legacy: { type: 'string', enum: ['p1', 'p2'], enumNames: ['Cats', 'Dogs'] },
    many: {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      items: { type: 'string', enum: ['g', 'p', 'v'] },
      default: ['g'],
    },
    manyTitled: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'f1', title: 'Tuna' },
          { const: 'f2', title: 'Trout' },
        ],
      },
    },
  },
  required: ['name'],
};

function fields(): FormField[] {
  const built = buildForm(schema);
  if (!built.ok) throw new Error(built.error);
  return built.fields;
}
const field = (name: string): FormField | undefined => fields().find((f) => f.name === name);

describe('requestedSchema → form fields', () => {
  it('maps every primitive kind, with titles, formats, bounds and option labels', () => {
    expect(field('name')).toMatchObject({
      kind: 'text',
      label: 'Name',
      required: true,
      minLength: 2,
      maxLength: 5,
    });
    expect(field('email')).toMatchObject({ kind: 'text', label: 'email', format: 'email', required: false });
    expect(field('age')).toMatchObject({
      kind: 'number',
      integer: true,
      minimum: 1,
      maximum: 100,
      default: 30,
    });
    expect(field('score')).toMatchObject({ kind: 'number', integer: false });
    expect(field('ok')).toMatchObject({ kind: 'boolean', default: true });
    expect(field('plain')).toMatchObject({
      kind: 'select',
      options: [
        { value: 'a', label: 'a' },
        { value: 'b', label: 'b' },
      ],
    });
    expect(field('titled')).toMatchObject({
      kind: 'select',
      options: [
        { value: 'x', label: 'Ex' },
        { value: 'y', label: 'Why' },
      ],
    });
    expect(field('legacy')).toMatchObject({
      kind: 'select',
      options: [
        { value: 'p1', label: 'Cats' },
        { value: 'p2', label: 'Dogs' },
      ],
    });
    expect(field('many')).toMatchObject({ kind: 'multiselect', minItems: 1, maxItems: 2, default: ['g'] });
    expect(field('manyTitled')).toMatchObject({
      kind: 'multiselect',
      options: [
        { value: 'f1', label: 'Tuna' },
        { value: 'f2', label: 'Trout' },
      ],
    });
  });

  it('refuses nested objects with a one-line reason', () => {
    const built = buildForm({ type: 'object', properties: { deep: { type: 'object', properties: {} } } });
    expect(built).toMatchObject({ ok: false });
    if (!built.ok) expect(built.error).toMatch(/^Unsupported form schema at properties\.deep/);
  });
});

describe('drafts, defaults and validation', () => {
  it('starts from the defaults and an untouched valid form sends them', () => {
    const draft = { ...initialDraft(fields()), name: 'Ada' };
    expect(draft).toMatchObject({ age: '30', ok: true, plain: 'a', many: ['g'], email: '' });
    expect(checkDraft(fields(), draft)).toEqual({
      ok: true,
      content: { name: 'Ada', age: 30, ok: true, plain: 'a', many: ['g'] },
    });
  });

  it('reports each problem on its field', () => {
    const draft = {
      ...initialDraft(fields()),
      name: 'A',
      email: 'not-an-email',
      site: 'example.com',
      born: '2023-02-30',
      at: '2023-01-01 25:00Z',
      age: '4.5',
      score: '2',
      many: [],
      titled: 'z',
    };
    const check = checkDraft(fields(), draft);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.errors).toEqual({
      name: 'At least 2 characters',
      email: 'Enter an email address (name@example.com)',
      site: 'Enter a full URL (https://…)',
      born: 'Enter a date (YYYY-MM-DD)',
      at: 'Enter a date and time (YYYY-MM-DDThh:mm:ssZ)',
      age: 'Enter a whole number',
      score: 'Must be at most 1',
      many: 'Choose at least 1',
      titled: 'Not one of the choices',
    });
  });

  it('a required field left empty is required', () => {
    const check = checkDraft(fields(), initialDraft(fields()));
    expect(check).toMatchObject({ ok: false, errors: { name: 'This field is required' } });
  });

  it('formats accept their valid forms', () => {
    expect(matchesFormat('email', 'ada@example.org')).toBe(true);
    expect(matchesFormat('uri', 'https://example.org/x?y=1')).toBe(true);
    expect(matchesFormat('date', '2024-02-29')).toBe(true);
    expect(matchesFormat('date', '2023-02-29')).toBe(false);
    expect(matchesFormat('date-time', '2024-02-29T10:30:00.5+02:00')).toBe(true);
  });
});

describe('completeContent (what the host does with an accepted answer)', () => {
  it('fills every omitted field that has a default (SEP-1034)', () => {
    expect(completeContent(fields(), { name: 'Ada' })).toEqual({
      ok: true,
      content: { name: 'Ada', age: 30, ok: true, plain: 'a', many: ['g'] },
    });
  });

  it('refuses unknown keys and values of the wrong type', () => {
    const check = completeContent(fields(), { name: 'Ada', age: '30', extra: 1 });
    expect(check).toMatchObject({
      ok: false,
      errors: { age: 'Expected a number', extra: 'Not a field of this form' },
    });
  });
});
