import { describe, expect, it } from 'vitest';
import type { BundleField } from '../../../../../../shared/model/bundle.js';
import { formValues, initialForm } from '../../../../../../renderer/src/features/bundles/bundle-form.js';

const field = (key: string, more: Partial<BundleField>): BundleField => ({
  key,
  type: 'string',
  title: key,
  description: '',
  required: false,
  sensitive: false,
  multiple: false,
  ...more,
});

const fields: BundleField[] = [
  field('key', { sensitive: true, required: true }),
  field('root', { type: 'directory', required: true, current: '/srv' }),
  field('paths', { type: 'directory', multiple: true, default: ['/a', '/b'] }),
  field('n', { type: 'number', min: 1, max: 5, default: 2 }),
  field('debug', { type: 'boolean', default: true }),
];

describe('bundle settings form', () => {
  it('starts from the installed value or the default, never a secret', () => {
    expect(initialForm(fields)).toEqual({ key: '', root: '/srv', paths: '/a\n/b', n: '2', debug: true });
  });

  it('sends typed values and says what is missing or out of bounds', () => {
    const form = { ...initialForm(fields), key: ' s3cret ', n: '9' };
    expect(formValues(fields, form)).toEqual({
      values: { key: ' s3cret ', root: '/srv', paths: ['/a', '/b'], debug: true },
      errors: { n: 'At most 5' },
    });
    expect(formValues(fields, { ...form, key: '', root: '', n: 'x' }).errors).toEqual({
      key: 'Required',
      root: 'Required',
      n: 'Enter a number',
    });
  });

  it('keeps a stored secret when its field is left empty', () => {
    const update = [field('key', { sensitive: true, required: true, stored: true })];
    expect(formValues(update, { key: '' })).toEqual({ values: {}, errors: {} });
  });
});
