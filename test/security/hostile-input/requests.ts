// Hostile requests and how they are sent: over fetch, or as raw bytes on a socket for what fetch refuses to send.
// Tokens are named in a request and looked up at send time (they exist only once the server runs); so is the
// invitation link some requests carry as `<invitation-jwt>`.
import { Buffer } from 'node:buffer';
import net from 'node:net';
import { target } from './server.ts';

/** A request that takes longer than this is a hang. */
export const DEADLINE_MS = 15_000;
/** Fastify's maxParamLength in src/gateway/fastify.ts: longer parameters are the malformed-URL test's. */
export const MAX_PARAM = 2048;

export interface Req {
  cat: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The response is GraphQL's (or the transport's, for a /graphql request refused before GraphQL runs). */
  graphql?: boolean;
  /** Bytes written as they are to a socket, for what fetch refuses to send. */
  raw?: Buffer;
  /** Credential placeholder resolved at send time (the tokens exist only after beforeAll). */
  auth?: Auth;
}

export interface Res {
  status: number;
  text: string;
  ms: number;
}

export type Auth = { kind: 'none' } | { kind: 'jwt'; name: string } | { kind: 'header'; value: string };

/** Requests sent, by category, for the counts each file checks and prints. */
export const counts = new Map<string, number>();
export const stats = { sent: 0 };

export const clip = (x: string, n = 300) => (x.length > n ? `${x.slice(0, n)}... (${x.length} chars)` : x);
const hex = (bytes: Uint8Array | ArrayBuffer) =>
  Buffer.from(bytes as Uint8Array)
    .toString('hex')
    .slice(0, 200);

export function describeReq(r: Req): string {
  if (r.raw) return `raw bytes ${JSON.stringify(clip(r.raw.toString('latin1'), 400))}`;
  const body =
    r.body === undefined
      ? ''
      : ` body=${JSON.stringify(clip(typeof r.body === 'string' ? r.body : `<bytes ${hex(r.body)}>`))}`;
  // Tokens are named by kind (see beforeAll), not printed: they are minted afresh on every run.
  const headers = {
    ...(r.headers ?? {}),
    ...(r.auth?.kind === 'jwt' ? { authorization: `Bearer <${r.auth.name} token>` } : {}),
    ...(r.auth?.kind === 'header' ? { authorization: r.auth.value } : {}),
  };
  return (
    `${r.method} ${clip(r.path, 200)} ` +
    `headers=${JSON.stringify(headers, (_k, v) => (typeof v === 'string' ? clip(v, 120) : v))}${body}`
  );
}

function resolveHeaders(r: Req): Record<string, string> {
  const headers = { ...(r.headers ?? {}) };
  const a = r.auth;
  if (a?.kind === 'jwt') headers.authorization = `Bearer ${target.jwts[a.name]}`;
  else if (a?.kind === 'header') headers.authorization = a.value;
  return headers;
}

export async function send(r: Req): Promise<Res> {
  stats.sent++;
  counts.set(r.cat, (counts.get(r.cat) ?? 0) + 1);
  const t0 = performance.now();
  if (r.raw) return sendRaw(r.raw, t0);
  try {
    const res = await fetch(`${target.s.url}${r.path}`, {
      method: r.method,
      headers: resolveHeaders(r),
      // Bytes go as they are (invalid UTF-8 included).
      body: typeof r.body === 'string' || r.body === undefined ? r.body : new Uint8Array(r.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(DEADLINE_MS),
    });
    const text = Buffer.from(await res.arrayBuffer()).toString('utf8');
    return { status: res.status, text, ms: performance.now() - t0 };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    throw new Error(
      `no response (${e.name}: ${e.message}${e.cause ? `; ${e.cause.code ?? ''} ${e.cause.message ?? ''}` : ''}) ` +
        `after ${Math.round(performance.now() - t0)} ms to ${describeReq(r)}`,
      { cause: err },
    );
  }
}

/** Writes raw bytes, reads until the server closes, parses status and body (Content-Length or chunked). */
function sendRaw(bytes: Buffer, t0: number): Promise<Res> {
  const { port } = new URL(target.s.url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(bytes));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`no response in ${DEADLINE_MS} ms to raw bytes ${JSON.stringify(clip(bytes.toString('latin1')))}`),
      );
    }, DEADLINE_MS);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => undefined); // a reset after the response is fine; no response is caught below
    socket.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n/.exec(all);
      // The client half-closed right after its bytes: it is not waiting for a response, and when the work behind a
      // well-formed request is asynchronous (PostgreSQL) the server drops the response with the connection. A closed
      // connection without bytes is no 5xx; what must hold is that anything sent back is a documented response and
      // that the server keeps serving (checked after the run).
      if (all === '') return resolve({ status: 0, text: '', ms: performance.now() - t0 });
      if (!m)
        return reject(
          new Error(
            `no HTTP response to raw bytes ${JSON.stringify(clip(bytes.toString('latin1')))}: ` +
              `${JSON.stringify(clip(all))}`,
          ),
        );
      const split = all.indexOf('\r\n\r\n');
      const head = all.slice(0, split);
      let body = all.slice(split + 4);
      if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) body = dechunk(body);
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      if (length) body = body.slice(0, Number(length[1]));
      resolve({ status: Number(m[1]), text: Buffer.from(body, 'latin1').toString('utf8'), ms: performance.now() - t0 });
    });
  });
}

function dechunk(body: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', i);
    if (eol < 0) return out;
    const size = parseInt(body.slice(i, eol), 16);
    if (!size) return out;
    out += body.slice(eol + 2, eol + 2 + size);
    i = eol + 2 + size + 2;
  }
}

export const gqlPost = (
  cat: string,
  query: string,
  extra: { variables?: unknown; operationName?: unknown } = {},
  auth: Auth = { kind: 'jwt', name: 'player' },
): Req => ({
  cat,
  method: 'POST',
  path: '/graphql',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query, ...extra }),
  auth,
  graphql: true,
});

export const withInvitationJwt = (text: string) => text.replaceAll('<invitation-jwt>', target.invitationJwt);

/** Placeholders in paths resolved once the tokens exist. */
export function resolvePath(r: Req): Req {
  if (!r.path.includes('%3C') && !r.path.includes('<')) return r;
  const path = r.path
    .replace(/<invitation-jwt>/g, target.invitationJwt)
    .replace(/<jwt:(\w+)>/g, (_m, n: string) => target.jwts[n]);
  return { ...r, path };
}
