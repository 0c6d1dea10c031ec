import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { everything, tempDir, writeConfig } from '../helpers/servers.js';

const cli = fileURLToPath(new URL('../../dist/cli/mcp-host.mjs', import.meta.url));
const TASK_TOOL = 'simulate-research-query';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let config: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  if (!existsSync(cli)) throw new Error('dist/cli/mcp-host.mjs is missing: run `npm run build` first');
  config = writeConfig({ everything: everything() });
  // The CLI's data folder (its task records) is this test's own.
  env = { ...process.env, XDG_CONFIG_HOME: tempDir() };
});

function run(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args, '--config', config],
      { timeout: 60_000, env },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('mcp-host CLI and tasks', () => {
  it('call on a task tool prints its status lines while it waits, then the result; tasks lists it', async () => {
    const r = await run('call', 'everything', TASK_TOOL, '--args', '{"topic":"tides"}');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('# Research Report: tides');
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^task [0-9a-f]+: working: Gathering sources\.\.\.$/);
    expect(lines).toContainEqual(expect.stringMatching(/: working: Generating report\.\.\.$/));
    expect(lines.at(-1)).toMatch(/: completed/);

    const listed = await run('tasks', 'everything');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^completed\s+everything\/simulate-research-query\s+[0-9a-f]+\s/m);
    const json = JSON.parse((await run('tasks', '--json')).stdout) as { status: string }[];
    expect(json.map((t) => t.status)).toContain('completed');
  }, 60_000);

  it('Ctrl+C cancels the task on the server and the call ends cancelled', async () => {
    const child = spawn(
      process.execPath,
      [cli, 'call', 'everything', TASK_TOOL, '--args', '{"topic":"stop"}', '--config', config],
      {
        env,
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('working:') && !child.killed) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).toContain('Cancelling the task');
    expect(stderr).toMatch(/was cancelled\n$/);
    expect(code).toBe(3);
    const listed = await run('tasks', 'everything');
    expect(listed.stdout).toMatch(/^cancelled\s+everything\/simulate-research-query/m);
  }, 60_000);
});
