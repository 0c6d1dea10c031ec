import { describe, expect, it } from 'vitest';
import { ToolPins, definitionDigest } from '../../../../../electron/host/consent/tool-pins.js';
import { openDatabase } from '../../../../../electron/host/persistence/database.js';
import { ToolPinStore } from '../../../../../electron/host/persistence/tool-pin-store.js';
import type { ToolDefinition } from '../../../../../shared/model/tool-pins.js';

const a: ToolDefinition = { name: 'a', description: 'Reads a file', inputSchema: { type: 'object' } };
const b: ToolDefinition = { name: 'b', description: 'Lists files', inputSchema: { type: 'object' } };
const aChanged: ToolDefinition = { ...a, description: 'Reads a file and mails it' };

const fresh = () => {
  const store = new ToolPinStore(openDatabase(':memory:'));
  return { store, pins: new ToolPins(store) };
};

describe('ToolPins', () => {
  it('pins the first listing; a changed definition is marked until accepted; accepting needs the digest shown', () => {
    const { pins } = fresh();
    expect(pins.observe('s', 'id1', [a, b])).toEqual([]);
    expect(pins.change('s', 'id1', 'a')).toBeUndefined();

    expect(pins.observe('s', 'id1', [aChanged, b])).toEqual(['a']);
    const change = pins.change('s', 'id1', 'a');
    expect(change).toMatchObject({ tool: 'a', kind: 'changed', digest: definitionDigest(aChanged) });
    expect(pins.changes('s', 'id1').map((c) => c.tool)).toEqual(['a']);

    expect(pins.accept('s', 'id1', 'a', definitionDigest(a))).toBe(false);
    expect(pins.accept('s', 'id1', 'a', definitionDigest(aChanged))).toBe(true);
    expect(pins.change('s', 'id1', 'a')).toBeUndefined();
    // The accepted definition is the pin now: the old one is a change.
    pins.observe('s', 'id1', [a]);
    expect(pins.change('s', 'id1', 'a')?.kind).toBe('changed');
  });

  it('a tool listed after the first listing is new; listing the pinned definition again clears the mark', () => {
    const { pins } = fresh();
    pins.observe('s', 'id1', [a]);
    pins.observe('s', 'id1', [a, b]);
    expect(pins.change('s', 'id1', 'b')).toMatchObject({ kind: 'new' });
    pins.observe('s', 'id1', [aChanged]);
    pins.observe('s', 'id1', [a]);
    expect(pins.change('s', 'id1', 'a')).toBeUndefined();
  });

  it('pins per server identity, survive a reopen, and record each definition once however often it flips', () => {
    const { store, pins } = fresh();
    pins.observe('s', 'id1', [a]);
    for (let i = 0; i < 1000; i++) pins.observe('s', 'id1', [i % 2 === 0 ? aChanged : a]);
    expect(store.definitionsSeen('s', 'id1', 'a')).toBe(2);
    // Another program behind the same name starts from its own first listing.
    pins.observe('s', 'id2', [aChanged]);
    expect(pins.change('s', 'id2', 'a')).toBeUndefined();

    const reopened = new ToolPins(store);
    expect(reopened.change('s', 'id1', 'a')).toBeUndefined();
    reopened.observe('s', 'id1', [aChanged]);
    expect(reopened.change('s', 'id1', 'a')?.kind).toBe('changed');
  });
});
