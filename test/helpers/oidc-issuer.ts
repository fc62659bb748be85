// A real OpenID Connect provider (oidc-provider) on loopback, for the sign-in tests: the accounts are the test's,
// and its interaction logs in the account the test names next, without a form. rotateKeys() restarts it on the
// same address with a new signing key. With publishWrongKey its JWKS shows another key under the signing key's id:
// its ID tokens then carry signatures no published key verifies.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';

export interface TestAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface TestIssuer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, TestAccount>;
  /** The subject the next interaction logs in. */
  next: string;
  /** The JWKS publishes a key the issuer does not sign with (same key id). */
  publishWrongKey: boolean;
  /** When set, the discovery document names this as its jwks_uri. */
  advertisedJwksUri: string | null;
  rotateKeys(): Promise<void>;
  close(): Promise<void>;
}

async function signingKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    ...(await exportJWK(privateKey)),
    kid: `k${Math.random().toString(36).slice(2, 10)}`,
    alg: 'RS256',
    use: 'sig',
  };
}

export async function startTestIssuer(redirectUri: string, clientId = 'prode-test'): Promise<TestIssuer> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const issuer = `http://127.0.0.1:${port}`;
  const clientSecret = `secret-${Math.random().toString(36).slice(2)}`;
  const state: TestIssuer = {
    issuer,
    clientId,
    clientSecret,
    accounts: new Map(),
    next: '',
    publishWrongKey: false,
    advertisedJwksUri: null,
    async rotateKeys() {
      handler = build([await signingKey()]);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const build = (keys: JWK[]) => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      jwks: { keys },
      cookies: { keys: ['test-cookie-key'] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, sub) => {
        const account = state.accounts.get(sub);
        return account ? { accountId: sub, claims: () => ({ sub, ...account }) } : undefined;
      },
    });
    const callback = provider.callback();
    const decoy = generateKeyPair('RS256', { extractable: true }).then(({ publicKey }) => exportJWK(publicKey));
    return (req: IncomingMessage, res: ServerResponse) => {
      if (state.publishWrongKey && req.url === '/jwks') {
        void decoy.then((jwk) => {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ keys: [{ ...jwk, kid: keys[0].kid, alg: 'RS256', use: 'sig' }] }));
        });
        return;
      }
      if (state.advertisedJwksUri && req.url === DISCOVERY_PATH && !req.headers['x-test-raw']) {
        void advertise(issuer, state.advertisedJwksUri, res);
        return;
      }
      if (!req.url?.startsWith('/interaction/')) return callback(req, res);
      interact(provider, state, req, res).catch((err) => {
        res.statusCode = 500;
        res.end(String(err));
      });
    };
  };
  handler = build([await signingKey()]);
  return state;
}

const DISCOVERY_PATH = '/.well-known/openid-configuration';

/** The issuer's own discovery document with another jwks_uri. */
async function advertise(issuer: string, jwksUri: string, res: ServerResponse) {
  const own = await fetch(`${issuer}${DISCOVERY_PATH}`, { headers: { 'x-test-raw': '1' } });
  const document = { ...((await own.json()) as object), jwks_uri: jwksUri };
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(document));
}

/** Logs in `state.next` and grants what the client asked, with no page. */
async function interact(provider: Provider, state: TestIssuer, req: IncomingMessage, res: ServerResponse) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: state.next } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const grant = details.grantId
    ? (await provider.Grant.find(details.grantId))!
    : new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

/** Cookies per origin, as a browser keeps them (enough for these flows). */
export class CookieJar {
  private readonly jars = new Map<string, Map<string, string>>();
  header(url: string): string {
    const jar = this.jars.get(new URL(url).host);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }
  store(url: string, res: Response) {
    const host = new URL(url).host;
    const jar = this.jars.get(host) ?? new Map<string, string>();
    this.jars.set(host, jar);
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const gone = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (!value || gone) jar.delete(name);
      else jar.set(name, value);
    }
  }
  drop(url: string, name: string) {
    this.jars.get(new URL(url).host)?.delete(name);
  }
}

/** GET without following redirects, with and into the jar. */
export async function get(jar: CookieJar, url: string): Promise<Response> {
  const cookie = jar.header(url);
  const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  jar.store(url, res);
  return res;
}

/** Follows redirects from `url` until one goes to `stopAt` (a URL prefix): that URL, not requested. */
export async function followUntil(jar: CookieJar, url: string, stopAt: string): Promise<string> {
  let current = url;
  for (let hop = 0; hop < 20; hop++) {
    if (current.startsWith(stopAt)) return current;
    const res = await get(jar, current);
    const location = res.headers.get('location');
    if (!location) throw new Error(`${current} answered ${res.status} without a redirect: ${await res.text()}`);
    current = new URL(location, current).href;
  }
  throw new Error(`too many redirects from ${url}`);
}
