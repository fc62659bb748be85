// Hostile input (properties.ts says which properties hold) below the routes: URLs with undecodable escapes,
// near-miss paths, unknown methods, over-long request lines and headers; and malformed HTTP written as raw bytes
// (control bytes and raw UTF-8 in headers, broken request lines, conflicting lengths), which fetch refuses to send.
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { BASE_SEED, closingChecks, hostile } from './properties.ts';
import { MAX_PARAM, type Auth, type Req } from './requests.ts';
import { useHostileServer } from './server.ts';

const ROUTE_PATHS = [
  '/posts/1',
  '/posts/1/comments',
  '/invitations/jwt/x',
  '/invitations/1',
  '/companies/search',
  '/tournaments/me',
  '/auth/login',
  '/graphql',
  '/healthz',
];
const urlArb: fc.Arbitrary<Req> = fc
  .oneof(
    // Percent-escapes that do not decode: bad hex, truncated, overlong, surrogates, out of range.
    fc
      .tuple(
        fc.constantFrom(
          '/posts/',
          '/posts/1/comments?x=',
          '/invitations/jwt/',
          '/invitations/',
          '/companies/search?search=',
          '/tournaments/me?',
        ),
        fc.constantFrom(
          '%ZZ',
          '%',
          '%4',
          '%E0%A4',
          '%C0%AF',
          '%ED%A0%80',
          '%F4%90%80%80',
          '%FF',
          '%00',
          '%2F',
          '%5C',
          '%22',
          '%0D%0A',
          '%u0041',
          '%%32%35',
        ),
      )
      .map(([p, bad]) => ({
        cat: 'malformed urls',
        method: p.startsWith('/invitations/') && !p.includes('jwt') ? 'PATCH' : 'GET',
        path: `${p}${bad}`,
        headers: { 'content-type': 'application/json' },
        body: p.startsWith('/invitations/') && !p.includes('jwt') ? '{"name":"x"}' : undefined,
      })),
    // Paths near the routes: trailing slashes, doubled slashes, case, matrix parameters, unknown routes and methods.
    fc
      .tuple(
        fc.constantFrom(...ROUTE_PATHS),
        fc.constantFrom(
          '/',
          '//',
          '/x',
          ';x=1',
          '?',
          '#x',
          '/..',
          '/.',
          '/%2e%2e',
          '.json',
          '?__proto__[x]=1',
          '?a=1&a=2',
        ),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
      )
      .map(([p, suffix, method]) => ({
        cat: 'malformed urls',
        method,
        path: `${p}${suffix}`,
        graphql: p === '/graphql' && !/^\/[a-z/%.]/.test(suffix) ? true : undefined,
      })),
    // Path parameters longer than Fastify's maxParamLength.
    fc
      .tuple(
        fc.constantFrom('/posts/:p', '/posts/:p/comments', '/invitations/jwt/:p'),
        fc.integer({ min: MAX_PARAM + 1, max: 10_000 }),
      )
      .map(([p, n]) => ({ cat: 'malformed urls', method: 'GET', path: p.replace(':p', '1'.repeat(n)) })),
    // Far too long: past the 16 KiB header limit (the request line counts).
    fc
      .tuple(
        fc.constantFrom('/companies/search?search=', '/posts/', '/invitations/jwt/', '/graphql?query='),
        fc.integer({ min: 17_000, max: 100_000 }),
      )
      .map(([p, n]) => ({
        cat: 'malformed urls',
        method: 'GET',
        path: `${p}${'a'.repeat(n)}`,
        graphql: p === '/graphql?query=',
      })),
    fc
      .tuple(
        fc.constantFrom('x-app-path', 'x-app-host', 'x-app-company', 'authorization', 'x-junk'),
        fc.integer({ min: 17_000, max: 60_000 }),
      )
      .map(([h, n]) => ({
        cat: 'malformed urls',
        method: 'GET',
        path: '/tournaments/me',
        headers: { [h]: 'a'.repeat(n) },
      })),
  )
  .map((r) => ({ ...r, auth: { kind: 'jwt', name: 'player' } as Auth }));

/** 3,000 header lines: past Node's 16 KiB of headers. */
const MANY_HEADERS = Array.from({ length: 3_000 }, (_, i) => `x-h${i}: 1`).join('\r\n');

/** Header values as bytes, which fetch would refuse: controls, NUL, raw UTF-8 (emoji, RTL marks, surrogates). */
const headerBytes = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => Buffer.from(b.filter((x) => x !== 0x0a && x !== 0x0d))),
  fc
    .constantFrom(
      ...['\u0000', '\u0001', '\u007f', '\u202e', '\u200f', '\ufeff'],
      ...['😀', 'é', '\ud800', 'demo\u0000', 'a\tb'],
    )
    .map((x) => Buffer.from(x, 'utf8')),
  fc.constantFrom([0xed, 0xa0, 0x80], [0xff, 0xfe], [0xc0, 0xaf]).map((b) => Buffer.from(b)),
);
const rawArb: fc.Arbitrary<Req> = fc
  .oneof(
    fc
      .tuple(
        fc.constantFrom(
          '/posts/1',
          '/posts/1/comments',
          '/tournaments/me',
          '/companies/search',
          '/invitations/jwt/x',
          '/graphql?query=%7B__typename%7D',
          '/healthz',
        ),
        fc.constantFrom('x-app-path', 'x-app-host', 'x-app-company', 'authorization', 'content-type', 'x-junk'),
        headerBytes,
      )
      .map(([path, name, value]) =>
        Buffer.concat([
          Buffer.from(`GET ${path} HTTP/1.1\r\nHost: localhost\r\napollo-require-preflight: 1\r\n${name}: `, 'latin1'),
          value,
          Buffer.from('\r\nConnection: close\r\n\r\n'),
        ]),
      ),
    fc
      .constantFrom(
        'GARBAGE\r\n\r\n',
        'GET\r\n\r\n',
        'GET /posts/1\r\n\r\n',
        'GET /posts/1 HTTP/9.9\r\nHost: x\r\n\r\n',
        'get /posts/1 HTTP/1.1\r\nHost: x\r\n\r\n',
        'FOO /posts/1 HTTP/1.1\r\nHost: x\r\n\r\n',
        'GET  /posts/1  HTTP/1.1\r\nHost: x\r\n\r\n',
        'GET http://evil.test/posts/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
        'GET /posts/1 HTTP/1.1\nHost: x\n\n',
        'GET /posts/1 HTTP/1.1\r\nHost: x\r\n folded: header\r\n\r\n',
        'GET /posts/1 HTTP/1.1\r\nHost x\r\n\r\n',
        'GET /posts/1 HTTP/1.1\r\n: empty-name\r\n\r\n',
        'GET /posts/1 HTTP/1.1\r\nHo st: x\r\n\r\n',
        'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n' +
          'Content-Type: application/json\r\n\r\n0\r\n\r\n',
        'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n' +
          'Content-Type: application/json\r\n\r\n{}',
        'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\nContent-Type: application/json\r\n\r\n',
        'POST /auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n' +
          'Content-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
        'POST /auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n' +
          'Content-Type: application/json\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
        'POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n' +
          'Content-Length: 4\r\nConnection: close\r\n\r\nabcd',
        'POST /graphql HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n' +
          'Connection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
        'GET /posts/%ZZ"\\ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
        'GET /invitations/jwt/%ZZ"},"x":{" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
        'GET /posts/\u00ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
        'GET /posts/1\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
        'GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
        `GET /posts/1 HTTP/1.1\r\nHost: x\r\n${MANY_HEADERS}\r\n\r\n`,
      )
      .map((x) => Buffer.from(x, 'latin1')),
  )
  .map((raw): Req => ({
    cat: 'malformed http',
    method: 'RAW',
    path: '',
    raw,
    graphql: /^\w+ \/graphql[ ?]/.test(raw.toString('latin1')),
  }));

useHostileServer();

describe('hostile input: no 5xx, documented error bodies, coded GraphQL errors, no stack traces', () => {
  const URLS =
    'malformed URLs: undecodable escapes, near-miss paths, unknown methods, over-long request lines and headers';
  it(URLS, async () => {
    await hostile('urls', urlArb, 15, BASE_SEED + 8);
  });

  it('malformed HTTP: control bytes and raw UTF-8 in headers, broken request lines, conflicting lengths', async () => {
    await hostile('raw', rawArb, 10, BASE_SEED + 9);
  });

  closingChecks(100);
});
