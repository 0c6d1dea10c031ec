import { describe, expect, it } from 'vitest';
import { HostError } from '../../../../../../electron/host/errors.js';
import {
  envReferences,
  expandEnvReferences,
  expandEnvReferencesIn,
} from '../../../../../../electron/host/servers/config/env-references.js';

describe('${env:NAME} references', () => {
  const env = { HOME: '/home/ada', TOKEN: 's3cret', EMPTY: '' };

  it('replaces every reference, including repeated and adjacent ones', () => {
    expect(expandEnvReferences('${env:HOME}/bin:${env:HOME}/.local', env, 'cwd')).toBe(
      '/home/ada/bin:/home/ada/.local',
    );
    expect(expandEnvReferences('Bearer ${env:TOKEN}${env:EMPTY}', env, 'header')).toBe('Bearer s3cret');
  });

  it('leaves text without references, and other ${…} forms, untouched', () => {
    expect(expandEnvReferences('plain $HOME ${HOME} ${input:key}', env, 'arg')).toBe(
      'plain $HOME ${HOME} ${input:key}',
    );
  });

  it('names the missing variable and where it was used', () => {
    const attempt = () => expandEnvReferences('--key=${env:API_KEY}', env, 'Server "x" argument 2');
    expect(attempt).toThrow(HostError);
    expect(attempt).toThrow('Server "x" argument 2 uses ${env:API_KEY}, but API_KEY is not set');
  });

  it('expands the values of a table and keeps its keys', () => {
    expect(expandEnvReferencesIn({ Authorization: 'Bearer ${env:TOKEN}' }, env, 'header')).toEqual({
      Authorization: 'Bearer s3cret',
    });
  });

  it('lists the names a text refers to', () => {
    expect(envReferences('${env:A} ${env:B} ${env:A}')).toEqual(['A', 'B']);
  });
});
