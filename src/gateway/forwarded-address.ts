import type { IncomingMessage } from 'node:http';

/**
 * The client address of a request Fastify does not route (a WebSocket upgrade), believing X-Forwarded-For for
 * `hops` proxies exactly as the HTTP routes do (trustProxy in src/gateway/fastify.ts).
 */
export function forwardedAddress(request: IncomingMessage, hops: number): string {
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const chain = [request.socket.remoteAddress ?? 'unknown', ...forwarded.reverse()];
  return chain[Math.min(hops, chain.length - 1)];
}
