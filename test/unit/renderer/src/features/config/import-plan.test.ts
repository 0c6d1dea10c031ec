import { describe, expect, it } from 'vitest';
import type { ImportPreview } from '../../../../../../shared/model/import.js';
import { initialRows, planImport } from '../../../../../../renderer/src/features/config/import-plan.js';

const preview: ImportPreview = {
  source: 'vscode',
  servers: [
    {
      name: 'a',
      transport: 'stdio',
      target: 'x',
      envNames: ['K'],
      headerNames: [],
      sentVariables: [],
      inputIds: ['key'],
      conflict: false,
    },
    {
      name: 'b',
      transport: 'stdio',
      target: 'y',
      envNames: [],
      headerNames: [],
      sentVariables: [],
      inputIds: [],
      conflict: true,
    },
    {
      name: 'c',
      transport: 'stdio',
      target: '',
      envNames: [],
      headerNames: [],
      sentVariables: [],
      inputIds: [],
      conflict: false,
      problem: 'command: required',
    },
  ],
  inputs: [{ id: 'key', password: true }],
};

describe('import plan', () => {
  it('starts with valid, free servers chosen and conflicts or broken ones skipped', () => {
    expect(initialRows(preview).map((r) => [r.name, r.include])).toEqual([
      ['a', true],
      ['b', false],
      ['c', false],
    ]);
  });

  it('asks for the inputs of chosen servers and refuses taken or duplicate names', () => {
    const rows = [
      { name: 'a', include: true, as: 'a' },
      { name: 'b', include: true, as: 'a' },
      { name: 'c', include: false, as: 'c' },
    ];
    const plan = planImport(preview, rows, ['b'], {});
    expect(plan.missingInputs).toEqual(['key']);
    expect(plan.rowErrors).toEqual({ b: '"a" already exists; rename or skip' });
    expect(plan.count).toBe(2);

    const renamed = planImport(
      preview,
      [
        { name: 'a', include: true, as: 'a' },
        { name: 'b', include: true, as: 'b-2' },
        { name: 'c', include: false, as: 'c' },
      ],
      ['b'],
      { key: 'v' },
    );
    expect(renamed.rowErrors).toEqual({});
    expect(renamed.missingInputs).toEqual([]);
    expect(renamed.choices).toEqual([
      { name: 'a', action: 'import', as: 'a' },
      { name: 'b', action: 'import', as: 'b-2' },
      { name: 'c', action: 'skip' },
    ]);
  });
});
