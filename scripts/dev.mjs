// `npm run dev`: the renderer with hot reload. Builds the Node side, starts
// the headless host, and serves the renderer from Vite's dev server, which
// proxies the host's WebSocket so the page keeps one origin.
import { spawn } from 'node:child_process';
import { createServer } from 'vite';

const DEV_PORT = Number(process.env.MCP_HOST_DEV_PORT ?? 5173);
const devOrigin = `http://127.0.0.1:${DEV_PORT}`;

await run(process.execPath, ['scripts/build-node.mjs']);

const host = spawn(
  process.execPath,
  ['dist/cli/mcp-host.mjs', 'serve', '--port', '0', '--dev-origin', devOrigin, ...process.argv.slice(2)],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const hostUrl = await new Promise((resolve, reject) => {
  let out = '';
  host.stdout.on('data', (chunk) => {
    out += chunk.toString();
    const match = /http:\/\/127\.0\.0\.1:(\d+)\/login\?code=([\w.-]+)/.exec(out);
    if (match) resolve({ port: match[1], code: match[2] });
  });
  host.once('exit', (code) => reject(new Error(`the host exited (${code}) before it was ready:\n${out}`)));
});

const vite = await createServer({
  configFile: 'vite.config.ts',
  server: {
    port: DEV_PORT,
    strictPort: true,
    // The sign-in link is the host's too: its cookie (named after the host's port) then rides on /ipc.
    proxy: {
      '/ipc': { target: `ws://127.0.0.1:${hostUrl.port}`, ws: true, changeOrigin: true },
      '/login': { target: `http://127.0.0.1:${hostUrl.port}`, changeOrigin: true },
    },
  },
});
await vite.listen();
console.log(`\nMCP Host (dev, hot reload; the link works once): ${devOrigin}/login?code=${hostUrl.code}\n`);

const stop = async () => {
  await vite.close();
  host.kill('SIGTERM');
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} failed`))));
  });
}
