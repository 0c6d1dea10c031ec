import { describe, expect, it } from 'vitest';
import { filterPrompts } from '../../../../../../renderer/src/features/resources-prompts/prompt-picker.js';

const entry = (server: string, name: string, title?: string) => ({
  server,
  prompt: { name, ...(title !== undefined ? { title } : {}) },
  completions: false,
});

describe('filterPrompts', () => {
  const all = [
    entry('everything', 'simple-prompt', 'Simple Prompt'),
    entry('everything', 'resource-prompt'),
    entry('notes', 'summarize', 'Summarize a note'),
  ];

  it('keeps every prompt for an empty query', () => {
    expect(filterPrompts(all, ' ')).toHaveLength(3);
  });

  it('matches name, title or server, names that start with the query first', () => {
    expect(filterPrompts(all, 'res').map((e) => e.prompt.name)).toEqual(['resource-prompt']);
    expect(filterPrompts(all, 'notes').map((e) => e.prompt.name)).toEqual(['summarize']);
    expect(filterPrompts(all, 'S').map((e) => e.prompt.name)).toEqual([
      'simple-prompt',
      'summarize',
      'resource-prompt',
    ]);
  });
});
