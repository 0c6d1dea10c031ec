import { describe, expect, it } from 'vitest';
import { attentionNote } from '../../../../../electron/host/consent/attention-note.js';

const id = 'A'.repeat(22);

describe('attentionNote (the system notification of a waiting consent request)', () => {
  it('names the tool and the server of a tool call', () => {
    expect(
      attentionNote({
        id,
        kind: 'tool',
        server: 'files',
        createdAt: 0,
        prompt: { tool: 'write_file', argumentsJson: '{"secret":"x"}' },
      }),
    ).toEqual({ title: 'Approval needed', body: 'Claude wants to run “write_file” on files.' });
  });

  it('shows server-supplied names without direction overrides or control characters, and cut', () => {
    const note = attentionNote({
      id,
      kind: 'tool',
      server: 'files',
      createdAt: 0,
      prompt: { tool: `\u202Eevil\u0007${'x'.repeat(200)}`, argumentsJson: '{}' },
    });
    expect(note.body.includes('\u202E') || note.body.includes('\u0007')).toBe(false);
    expect(note.body).toContain('“evilxxx');
    expect(note.body.length).toBeLessThan(140);
    // The arguments (possibly secret) never go to the OS notification.
    expect(JSON.stringify(note)).not.toContain('secret');
  });

  it('names the server and the host of a network question', () => {
    expect(
      attentionNote({
        id,
        kind: 'network',
        server: 'weather',
        createdAt: 0,
        prompt: { host: 'api.example.com', port: 443, via: 'connect' },
      }),
    ).toEqual({ title: 'Network access', body: 'weather wants to connect to api.example.com:443.' });
  });
});
