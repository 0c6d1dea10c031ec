import { describe, expect, it } from 'vitest';
import { checkArgumentsJson } from '../../../../../renderer/src/store/arguments-json.js';

describe('checkArgumentsJson', () => {
  it('passes a JSON object through unchanged and treats blank text as {}', () => {
    expect(checkArgumentsJson('{"message": "hi"}')).toEqual({ ok: true, json: '{"message": "hi"}' });
    expect(checkArgumentsJson('  \n')).toEqual({ ok: true, json: '{}' });
  });

  it('explains malformed JSON with the parser’s reason', () => {
    const result = checkArgumentsJson('{"message": ');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/^Arguments are not valid JSON: .+/);
  });

  it('refuses JSON that is not an object', () => {
    for (const text of ['42', '[1]', 'null', '"x"']) expect(checkArgumentsJson(text).ok).toBe(false);
  });
});
