import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layering rules of docs/architecture.md are lint errors. These cases lint
 * deliberate violations (in memory, at real paths) and expect the rule to fire.
 */
const eslint = new ESLint({
  cwd: process.cwd(),
  // Only the import rules: they need no type information, so in-memory files
  // that no tsconfig lists can be linted.
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
});

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layering (eslint)', () => {
  it('the host core may not import electron', async () => {
    const messages = await restrictedImports(
      'electron/host/layering-probe.ts',
      "export { app } from 'electron';\n",
    );
    expect(messages.join()).toMatch(/Only electron\/main\.ts/);
  });

  it('shared/ may not import Node, the renderer or React', async () => {
    expect(
      await restrictedImports('shared/layering-probe.ts', "export { readFileSync } from 'node:fs';\n"),
    ).toHaveLength(1);
    expect(
      await restrictedImports('shared/layering-probe.ts', "export { useState } from 'react';\n"),
    ).toHaveLength(1);
  });

  it('the renderer may not import from electron/ or Node', async () => {
    const fromHost = "export { createHost } from '../../electron/host/host.js';\n";
    expect(await restrictedImports('renderer/src/layering-probe.ts', fromHost)).toHaveLength(1);
    expect(
      await restrictedImports(
        'renderer/src/layering-probe.ts',
        "export { spawn } from 'node:child_process';\n",
      ),
    ).toHaveLength(1);
  });

  it('only renderer/src/features/apps/bridge may import the ext-apps bridge, and nothing else of the MCP SDK', async () => {
    const bridge = "export { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';\n";
    const client = "export { Client } from '@modelcontextprotocol/client';\n";
    expect(await restrictedImports('renderer/src/features/apps/bridge/layering-probe.ts', bridge)).toEqual(
      [],
    );
    expect(
      await restrictedImports('renderer/src/features/apps/bridge/layering-probe.ts', client),
    ).toHaveLength(1);
    expect(await restrictedImports('renderer/src/components/layering-probe.ts', bridge)).toHaveLength(1);
  });

  it('the shell files may import electron', async () => {
    expect(
      await restrictedImports('electron/electron-layering-probe.ts', "export { app } from 'electron';\n"),
    ).toEqual([]);
  });
});
