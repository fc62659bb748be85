// The fetch openid-client uses for every request to a provider (discovery, JWKS, token). A company's admins name
// the issuer, and its discovery names the other endpoints, so each request is held to where a provider may be:
// in production https to a public address only (the host resolved here and the connection made to the address
// checked, so a second DNS answer cannot point it elsewhere); outside production http too, to loopback only. Every
// body is bounded, whatever the provider says of its length.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Config } from '../config.ts';

/** A provider's answer (a discovery document, a key set, tokens) is far below this. */
export const MAX_PROVIDER_BODY_BYTES = 512 * 1024;

/** A request a provider may not be sent, or an answer refused; its message is for the server's log only. */
export class ProviderFetchRefused extends Error {}

// Loopback, private, link-local, unique-local and unspecified: where a provider of the public internet never is.
const internal = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  internal.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fe80::', 10],
  ['fc00::', 7],
] as const) {
  internal.addSubnet(net, prefix, 'ipv6');
}

/** Why `address` (an IP) may not be a provider's in this environment, or null. Outside production, none. */
export function addressProblem(address: string, env: Config['env']): string | null {
  if (env !== 'production') return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped ? mapped[1] : address;
  const family = isIP(ip);
  if (family === 0) return `${address} is not an IP address`;
  return internal.check(ip, family === 4 ? 'ipv4' : 'ipv6') ? `${address} is an internal address` : null;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Why a request to `url` may not be made in this environment, before any address is known; or null. */
export function urlProblem(url: URL, env: Config['env']): string | null {
  if (url.protocol === 'https:') return null;
  if (url.protocol !== 'http:') return `${url.protocol} is not https`;
  if (env === 'production') return 'http is refused in production';
  return LOOPBACK.has(url.hostname) ? null : `http to ${url.host} is refused: http is for loopback issuers only`;
}

/** Resolves the host and checks every address it has; connects to the first. */
const checkedLookup =
  (env: Config['env']): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.map((a) => addressProblem(a.address, env)).find(Boolean);
      if (refused || addresses.length === 0) {
        return callback(new ProviderFetchRefused(refused ?? `${hostname} has no address`), '', 0);
      }
      if (options.all) return callback(null, addresses as never, 0);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };

interface FetchOptions {
  method: string;
  headers: Record<string, string> | Headers;
  body?: unknown;
  signal?: AbortSignal;
}

/** Reads the answer within the bound: a declared length over it is refused before reading, a body over it midway. */
function boundedBody(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(res.headers['content-length']);
    if (declared > MAX_PROVIDER_BODY_BYTES) {
      res.destroy();
      return reject(new ProviderFetchRefused(`the answer declares ${declared} bytes`));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PROVIDER_BODY_BYTES) {
        res.destroy();
        reject(new ProviderFetchRefused(`the answer exceeds ${MAX_PROVIDER_BODY_BYTES} bytes`));
      } else chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}

/** openid-client's customFetch for this environment. */
export function providerFetch(env: Config['env']) {
  const lookup = checkedLookup(env);
  return async (input: string, options: FetchOptions): Promise<Response> => {
    const url = new URL(input);
    const problem = urlProblem(url, env);
    if (problem) throw new ProviderFetchRefused(problem);
    if (env === 'production' && isIP(url.hostname.replace(/^\[|\]$/g, ''))) {
      const refused = addressProblem(url.hostname.replace(/^\[|\]$/g, ''), env);
      if (refused) throw new ProviderFetchRefused(refused);
    }
    const headers = Object.fromEntries(new Headers(options.headers as HeadersInit).entries());
    const body = options.body === undefined || options.body === null ? undefined : String(options.body);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = send(url, { method: options.method, headers, signal: options.signal, lookup }, resolve);
      req.on('error', reject);
      req.end(body);
    });
    const bytes = await boundedBody(res);
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const status = res.statusCode ?? 502;
    const noBody = status === 204 || status === 304 || options.method === 'HEAD';
    return new Response(noBody ? null : new Uint8Array(bytes), { status, headers: responseHeaders });
  };
}
