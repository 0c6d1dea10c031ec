import { describe, expect, it } from 'vitest';
import { loadDraft, saveDraft } from '../../../../../../renderer/src/features/chat/composer-drafts.js';

describe('composer drafts', () => {
  it('keeps a draft per conversation and forgets an emptied one', () => {
    saveDraft('a', { text: 'half a thought', promptMessages: [] });
    saveDraft('b', { text: 'another', promptMessages: [] });
    expect(loadDraft('a')?.text).toBe('half a thought');
    expect(loadDraft('b')?.text).toBe('another');
    saveDraft('a', { text: '', promptMessages: [] });
    expect(loadDraft('a')).toBeUndefined();
  });

  it('keeps at most 200 drafts, dropping the least recently saved', () => {
    for (let n = 0; n < 205; n++) saveDraft(`c${String(n)}`, { text: String(n), promptMessages: [] });
    expect(loadDraft('c0')).toBeUndefined();
    expect(loadDraft('c4')).toBeUndefined();
    expect(loadDraft('c5')?.text).toBe('5');
    expect(loadDraft('c204')?.text).toBe('204');
  });
});
