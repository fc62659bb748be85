// What the faces tell and take of single sign-on, against a real gateway and real OpenID Connect providers
// (oidc-provider) on loopback: the sign-in methods a login page draws (GraphQL and REST), whose start addresses
// lead through a real sign-in, and the REST exchange of the code, which answers as POST /auth/login.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/app.ts';
import { CookieJar, followUntil, get, startTestIssuer, type TestIssuer } from '../helpers/oidc-issuer.ts';

const APP_URL = 'https://app.example.test';
const METHODS = `query ($company: String!, $redirect: String) {
  signInMethods(company: $company, redirect: $redirect) {
    loginStrategy password providers { provider issuer startUrl } } }`;

let s: TestServer;
let own: TestIssuer;
let google: TestIssuer;
let callbackUrl: string;

beforeAll(async () => {
  s = await startTestServer({ env: { APP_URL } });
  s.config.sso.publicUrl = s.url;
  callbackUrl = `${s.url}/auth/sso/callback`;
  [own, google] = await Promise.all([
    startTestIssuer(callbackUrl, 'demo-client'),
    startTestIssuer(callbackUrl, 'google-client'),
  ]);
  s.config.sso.google = { issuer: google.issuer, clientId: google.clientId, clientSecret: google.clientSecret };
  const set = await s.gql(
    `mutation ($id: Int!, $input: CompanySsoInput!) { updateCompanySso(companyId: $id, input: $input) { id } }`,
    {
      id: s.demo.companies.DEMO,
      input: { issuer: own.issuer, clientId: own.clientId, clientSecret: own.clientSecret, emailDomains: [] },
    },
    bearer(await s.loginAs('admin')),
  );
  expect(set.errors).toBeUndefined();
}, 60_000);

afterAll(async () => {
  await Promise.all([own?.close(), google?.close()]);
  await s?.close();
});

/** Follows a start address through the provider, which logs `subject` in, and the gateway's callback. */
async function signInAt(startUrl: string, issuer: TestIssuer, subject: string): Promise<URL> {
  issuer.next = subject;
  const jar = new CookieJar();
  const answer = await followUntil(jar, startUrl, callbackUrl);
  const res = await get(jar, answer);
  expect(res.status, await res.clone().text()).toBe(302);
  return new URL(res.headers.get('location')!);
}

const restMethods = async (query: string) => {
  const res = await fetch(`${s.url}/auth/sso/methods?${query}`);
  return { status: res.status, body: await res.json() };
};
const company = (id: number, data: Record<string, unknown>) => s.t.db.prisma.company.update({ where: { id }, data });

describe('signInMethods and GET /auth/sso/methods', () => {
  it("list a company's methods to a signed-out caller, each start address leading through a real sign-in", async () => {
    const r = await s.gql(METHODS, { company: 'demo', redirect: '/home' });
    expect(r.errors).toBeUndefined();
    const methods = (r.data as { signInMethods: any }).signInMethods;
    const start = (provider: string) =>
      `${s.url}/auth/sso/start?${new URLSearchParams({ company: 'demo', provider, redirect: '/home' })}`;
    expect(methods).toEqual({
      loginStrategy: 0,
      password: true,
      providers: [
        { provider: 'google', issuer: google.issuer, startUrl: start('google') },
        { provider: 'company', issuer: null, startUrl: start('company') },
      ],
    });
    // The company's issuer, client and secret are the business of those who administer it.
    expect(JSON.stringify(r)).not.toContain(own.issuer);
    expect(JSON.stringify(r)).not.toMatch(/demo-client|secret/);
    // REST answers the same.
    const rest = await restMethods('company=demo&redirect=%2Fhome');
    expect(rest).toEqual({ status: 200, body: methods });

    own.accounts.set('faces-1', { email: 'faces.one@acme.test', email_verified: true });
    const viaCompany = await signInAt(methods.providers[1].startUrl, own, 'faces-1');
    expect(viaCompany.origin + viaCompany.pathname).toBe(`${APP_URL}/home`);
    expect(viaCompany.searchParams.get('code')).toBeTruthy();
    google.accounts.set('g-faces', { email: 'faces.g@gmail.test', email_verified: true });
    const viaGoogle = await signInAt(methods.providers[0].startUrl, google, 'g-faces');
    expect(viaGoogle.searchParams.get('code')).toBeTruthy();
  });

  it('follow the company: disableGoogleLogin, loginStrategy 1, no provider of its own', async () => {
    const id = s.demo.companies.DEMO;
    const kinds = async (name: string) => {
      const r = await s.gql(METHODS, { company: name });
      expect(r.errors).toBeUndefined();
      const m = (r.data as { signInMethods: any }).signInMethods;
      return { password: m.password, providers: m.providers.map((p: { provider: string }) => p.provider) };
    };
    try {
      await company(id, { disableGoogleLogin: true });
      expect(await kinds('DEMO')).toEqual({ password: true, providers: ['company'] });
      await company(id, { disableGoogleLogin: false, loginStrategy: 1 });
      expect(await kinds('demo')).toEqual({ password: false, providers: ['company'] });
    } finally {
      await company(id, { disableGoogleLogin: false, loginStrategy: 0 });
    }
    // Globex has no provider of its own here.
    expect(await kinds('GLOBEX')).toEqual({ password: true, providers: ['google'] });
  });

  it('refuse an unknown or closed company, a missing company and an unsafe redirect', async () => {
    const unknown = await s.gql(METHODS, { company: 'nope' });
    expect(unknown.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const unsafe = await s.gql(METHODS, { company: 'demo', redirect: '//evil.test/' });
    expect(unsafe.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect((await restMethods('company=nope')).status).toBe(404);
    expect((await restMethods('')).body).toMatchObject({ code: 'BAD_USER_INPUT', message: /company is required/ });
    expect((await restMethods('company=demo&redirect=https%3A%2F%2Fevil.test')).status).toBe(400);
    expect((await restMethods('company=demo&extra=1')).body.message).toMatch(/unknown query parameter extra/);
  });
});

describe('POST /auth/sso/exchange', () => {
  const exchange = (body: unknown, type = 'application/json') =>
    fetch(`${s.url}/auth/sso/exchange`, {
      method: 'POST',
      headers: { 'content-type': type },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('turns the code of a sign-in into what POST /auth/login answers, once', async () => {
    own.accounts.set('faces-player', { email: 'player1@demo.test', email_verified: true });
    const start = `${s.url}/auth/sso/start?company=demo&provider=company&redirect=/`;
    const landed = await signInAt(start, own, 'faces-player');
    const code = landed.searchParams.get('code')!;
    const res = await exchange({ code });
    expect(res.status).toBe(200);
    const body = await res.json();
    const login = await fetch(`${s.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-path': 'demo' },
      body: JSON.stringify({ email: 'player1@demo.test', password: DEMO_PASSWORD }),
    });
    const byPassword = await login.json();
    // The same keys all the way down, and the same person; only the counters of sign-ins moved between the two.
    const shape = (v: unknown): unknown =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]))
        : typeof v;
    expect(shape(body)).toEqual(shape(byPassword));
    const { loginCount: _a, lastActiveDate: _b, ...user } = body.user;
    const { loginCount: _c, lastActiveDate: _d, ...userByPassword } = byPassword.user;
    expect(user).toEqual(userByPassword);
    const me = await s.gql('{ me { email } }', {}, bearer(body.token));
    expect(me.data).toEqual({ me: { email: 'player1@demo.test' } });

    const again = await exchange({ code });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ code: 'NOT_FOUND', message: /invalid, expired or already used/ });
  });

  it('refuses a body that is not { code: string }, and another content type', async () => {
    for (const [body, message] of [
      [{}, /body field code must be a string/],
      [{ code: 7 }, /body field code must be a string/],
      [{ code: 'x', token: 'y' }, /unknown body field token/],
      [[], /must be a JSON object/],
    ] as const) {
      const res = await exchange(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).message).toMatch(message);
    }
    expect((await exchange('code=x', 'text/plain')).status).toBe(415);
  });
});

describe('a sign-in started from the explorer', () => {
  it('ends on the gateway at /graphiql with the code, though APP_URL is elsewhere', async () => {
    own.accounts.set('faces-explorer', { email: 'explorer@acme.test', email_verified: true });
    const start = `${s.url}/auth/sso/start?company=demo&provider=company&redirect=/graphiql`;
    const landed = await signInAt(start, own, 'faces-explorer');
    expect(landed.origin + landed.pathname).toBe(`${s.url}/graphiql`);
    expect(landed.searchParams.get('code')).toBeTruthy();
    // Any other path of the app is the app's.
    const other = start.replace('redirect=/graphiql', 'redirect=/graphiql/x');
    const elsewhere = await signInAt(other, own, 'faces-explorer');
    expect(elsewhere.origin).toBe(APP_URL);
  });
});
