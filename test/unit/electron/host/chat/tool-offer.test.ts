import { describe, expect, it } from 'vitest';
import { offerTools } from '../../../../../electron/host/chat/tool-offer.js';
import { DEFAULT_TOOL_SEARCH } from '../../../../../shared/model/settings.js';
import { ToolInfoSchema } from '../../../../../shared/model/server.js';
import type { ServerSnapshot, ToolInfo } from '../../../../../shared/model/server.js';
import {
  callableByApp,
  toolResourceUri,
  toolVisibility,
  visibleToModel,
} from '../../../../../shared/model/tool-meta.js';

const tool = (name: string, meta?: unknown): ToolInfo =>
  ToolInfoSchema.parse({
    name,
    inputSchema: { type: 'object' },
    ...(meta !== undefined ? { _meta: meta } : {}),
  });

describe('MCP Apps tool metadata and visibility', () => {
  it('defaults to both the model and the app', () => {
    const plain = tool('plain');
    expect(toolVisibility(plain)).toEqual(['model', 'app']);
    expect(visibleToModel(plain)).toBe(true);
    expect(callableByApp(plain)).toBe(true);
    expect(toolResourceUri(plain)).toBeUndefined();
  });

  it('reads the resource URI from _meta.ui and from the older flat key, ui:// only', () => {
    expect(toolResourceUri(tool('a', { ui: { resourceUri: 'ui://x/a.html' } }))).toBe('ui://x/a.html');
    expect(toolResourceUri(tool('b', { 'ui/resourceUri': 'ui://x/b.html' }))).toBe('ui://x/b.html');
    expect(
      toolResourceUri(tool('c', { ui: { resourceUri: 'https://evil.example/app.html' } })),
    ).toBeUndefined();
  });

  it('app-only and model-only tools', () => {
    const appOnly = tool('refresh', { ui: { visibility: ['app'] } });
    expect(visibleToModel(appOnly)).toBe(false);
    expect(callableByApp(appOnly)).toBe(true);
    const modelOnly = tool('secret', { ui: { visibility: ['model'] } });
    expect(visibleToModel(modelOnly)).toBe(true);
    expect(callableByApp(modelOnly)).toBe(false);
  });

  it('a malformed _meta keeps the tool and falls back to the defaults', () => {
    const odd = tool('odd', { ui: { visibility: 'app', resourceUri: 42 } });
    expect(odd.name).toBe('odd');
    expect(toolVisibility(odd)).toEqual(['model', 'app']);
    expect(toolResourceUri(odd)).toBeUndefined();
    expect(tool('odder', 'not an object').name).toBe('odder');
    // Other _meta keys never reach the renderer.
    expect(tool('extra', { ui: {}, secret: 'x' })._meta).toEqual({ ui: {} });
  });

  it('Claude is offered only tools whose visibility includes "model"', () => {
    const server = {
      name: 'srv',
      status: 'connected',
      tools: [
        tool('both'),
        tool('app-only', { ui: { visibility: ['app'] } }),
        tool('model', { ui: { visibility: ['model'] } }),
      ],
    } as unknown as ServerSnapshot;
    expect(
      offerTools([server], { settings: { ...DEFAULT_TOOL_SEARCH, mode: 'off' }, pinned: [] }).tools.map(
        (t) => t.name,
      ),
    ).toEqual(['srv__both', 'srv__model']);
  });
});
