import { describe, expect, it } from 'vitest';
import {
  attachmentId,
  createAttachmentsStore,
} from '../../../../../../renderer/src/features/chat/attachments.js';

describe('attachments store', () => {
  it('attaches each resource of a server once, detaches and clears', () => {
    const store = createAttachmentsStore();
    const { attach, detach, clear } = store.getState();
    expect(attach({ server: 'a', uri: 'x://1', label: 'One' })).toBe(true);
    expect(attach({ server: 'a', uri: 'x://1', label: 'One again' })).toBe(false);
    expect(attach({ server: 'b', uri: 'x://1', label: 'Other server' })).toBe(true);
    expect(store.getState().attachments.map((a) => a.label)).toEqual(['One', 'Other server']);
    detach(attachmentId('a', 'x://1'));
    expect(store.getState().attachments.map((a) => a.server)).toEqual(['b']);
    clear();
    expect(store.getState().attachments).toEqual([]);
  });
});
