import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Host } from '../host/host-types.js';
import { describeError } from '../host/errors.js';
import { tokenMatches } from './auth.js';

/** Where `mcp-host install --link` hands a link to a running headless shell. */
export const INSTALL_LINK_PATH = '/install-link';
const MAX_BODY_BYTES = 32 * 1024;

const BodySchema = z.object({ link: z.string().max(16 * 1024) }).strict();

/**
 * `POST /install-link` with `Authorization: Bearer <token>` and `{ "link": … }`:
 * the CLI on the same machine (it reads the token from the data folder)
 * delivers an install link, which the open pages then show for confirmation.
 * Nothing is installed here. Requests a web page could make are refused: any
 * with an Origin header (browsers always send one on a cross-site POST), and
 * any without the token in the header (a query token is not accepted).
 */
export async function serveInstallLink(
  req: IncomingMessage,
  res: ServerResponse,
  host: Host,
  token: string,
): Promise<void> {
  const { status, body } = await answer(req, host, token);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(`${JSON.stringify(body)}\n`);
}

async function answer(
  req: IncomingMessage,
  host: Host,
  token: string,
): Promise<{ status: number; body: { id: string } | { error: string } }> {
  const fail = (status: number, error: string) => ({ status, body: { error } });
  if (req.method !== 'POST') return fail(405, 'Method Not Allowed');
  if (req.headers.origin !== undefined) return fail(403, 'Forbidden');
  const auth = req.headers.authorization ?? '';
  if (!auth.startsWith('Bearer ') || !tokenMatches(token, auth.slice(7))) return fail(401, 'Unauthorized');
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return fail(415, 'Send JSON');
  let text: string;
  try {
    text = await readBody(req);
  } catch (error) {
    return fail(413, describeError(error));
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail(400, 'The body is not JSON');
  }
  const parsed = BodySchema.safeParse(json);
  if (!parsed.success) return fail(400, 'The body must be { "link": "mcp-host://install?…" }');
  try {
    const pending = await host.installs.receiveLink(parsed.data.link);
    return { status: 200, body: { id: pending.id } };
  } catch (error) {
    return fail(400, describeError(error));
  }
}

/** The body as text; past the limit the rest is read and dropped (so the answer still reaches the caller) and it fails. */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      // Far past the limit: not a link being sent but a flood; end the connection.
      else if (size > 16 * MAX_BODY_BYTES) req.destroy();
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) reject(new Error('The link is too large'));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('The link is too large'));
    });
  });
}
