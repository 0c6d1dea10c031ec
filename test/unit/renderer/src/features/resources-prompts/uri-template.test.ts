import { describe, expect, it } from 'vitest';
import {
  previewUri,
  templateVariables,
} from '../../../../../../renderer/src/features/resources-prompts/uri-template.js';

describe('templateVariables', () => {
  it('finds level 1 variables in order', () => {
    expect(templateVariables('demo://resource/dynamic/text/{resourceId}')).toEqual(['resourceId']);
    expect(templateVariables('repo://{owner}/{repo}/issues/{number}')).toEqual(['owner', 'repo', 'number']);
  });

  it('finds names behind operators, prefixes and explode modifiers, once each', () => {
    expect(templateVariables('file:///{+path}{?q,page}{#frag}')).toEqual(['path', 'q', 'page', 'frag']);
    expect(templateVariables('x://{id:3}/{list*}/{id}')).toEqual(['id', 'list']);
  });

  it('finds nothing in a plain URI', () => {
    expect(templateVariables('demo://resource/static/a.md')).toEqual([]);
  });
});

describe('previewUri', () => {
  it('fills simple variables, percent-encoded, and leaves empty ones visible', () => {
    expect(previewUri('x://{a}/{b}', { a: 'a b/c' })).toBe('x://a%20b%2Fc/{b}');
  });
});
