// Sign-in with Google and a company's own provider, over real HTTP against a real gateway and real OpenID Connect
// providers (oidc-provider) on loopback: every redirect followed by hand, with a cookie jar.
import { createServer } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_PROVIDER_BODY_BYTES } from '../../src/auth/oidc-fetch.ts';
import { startTestServer, bearer, type TestServer } from '../helpers/app.ts';
import { CookieJar, followUntil, get, startTestIssuer, type TestIssuer } from '../helpers/oidc-issuer.ts';

const APP_URL = 'https://app.example.test';

let s: TestServer;
let companyA: TestIssuer;
let companyB: TestIssuer;
let google: TestIssuer;
/** An issuer a reseller runs for its own company (PARTNERS), asserting whatever e-mail it likes. */
let rogue: TestIssuer;
let callbackUrl: string;
let adminToken: string;
let globexAdminToken: string;

const SET_SSO = `mutation ($companyId: Int!, $input: CompanySsoInput!) {
  updateCompanySso(companyId: $companyId, input: $input) { id sso { issuer clientId emailDomains } } }`;
const EXCHANGE = `mutation ($code: String!) {
  exchangeLoginCode(code: $code) { token user { id email company { id } } } }`;

beforeAll(async () => {
  s = await startTestServer({ env: { APP_URL } });
  s.config.sso.publicUrl = s.url;
  callbackUrl = `${s.url}/auth/sso/callback`;
  [companyA, companyB, google, rogue] = await Promise.all([
    startTestIssuer(callbackUrl, 'demo-client'),
    startTestIssuer(callbackUrl, 'globex-client'),
    startTestIssuer(callbackUrl, 'google-client'),
    startTestIssuer(callbackUrl, 'partners-client'),
  ]);
  s.config.sso.google = { issuer: google.issuer, clientId: google.clientId, clientSecret: google.clientSecret };
  adminToken = await s.loginAs('admin');
  globexAdminToken = await s.loginAs('globexAdmin');
  const set = (token: string, companyId: number, issuer: TestIssuer, emailDomains: string[]) =>
    s.gql(
      SET_SSO,
      {
        companyId,
        input: { issuer: issuer.issuer, clientId: issuer.clientId, clientSecret: issuer.clientSecret, emailDomains },
      },
      bearer(token),
    );
  const a = await set(adminToken, s.demo.companies.DEMO, companyA, ['acme.test']);
  expect(a.errors).toBeUndefined();
  expect(a.data).toMatchObject({
    updateCompanySso: { sso: { issuer: companyA.issuer, clientId: 'demo-client', emailDomains: ['acme.test'] } },
  });
  const b = await set(globexAdminToken, s.demo.companies.GLOBEX, companyB, []);
  expect(b.errors).toBeUndefined();
}, 60_000);

afterAll(async () => {
  await Promise.all([companyA?.close(), companyB?.close(), google?.close(), rogue?.close()]);
  await s?.close();
});

interface Started {
  jar: CookieJar;
  /** The provider's answer to the gateway, not yet requested. */
  answer: string;
}

/** Starts a sign-in and lets the provider log `subject` in; stops before the gateway's callback. */
async function toCallback(issuer: TestIssuer, subject: string, query: Record<string, string>): Promise<Started> {
  issuer.next = subject;
  const jar = new CookieJar();
  const start = `${s.url}/auth/sso/start?${new URLSearchParams(query)}`;
  const res = await get(jar, start);
  expect(res.status, await res.clone().text()).toBe(302);
  const location = res.headers.get('location')!;
  expect(location.startsWith(issuer.issuer)).toBe(true);
  const authorize = new URL(location);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('nonce')).toBeTruthy();
  expect(authorize.searchParams.get('state')).toBeTruthy();
  return { jar, answer: await followUntil(jar, location, callbackUrl) };
}

/** The gateway's redirect after the callback, as a URL. */
async function callback(started: Started, answer = started.answer): Promise<URL> {
  const res = await get(started.jar, answer);
  expect(res.status, await res.clone().text()).toBe(302);
  return new URL(res.headers.get('location')!);
}

async function signIn(issuer: TestIssuer, subject: string, query: Record<string, string>): Promise<URL> {
  return callback(await toCallback(issuer, subject, query));
}

const exchange = (code: string) => s.gql(EXCHANGE, { code });

describe('sign-in with a company provider', () => {
  it('creates a person of a listed domain on first sign-in, and finds them by subject after', async () => {
    companyA.accounts.set('sub-new', { email: 'new.person@acme.test', email_verified: true, name: 'New Person' });
    const landed = await signIn(companyA, 'sub-new', { company: 'demo', provider: 'company', redirect: '/home?x=1' });
    expect(landed.origin + landed.pathname).toBe(`${APP_URL}/home`);
    expect(landed.searchParams.get('x')).toBe('1');
    const code = landed.searchParams.get('code')!;
    expect(code).toBeTruthy();
    expect(landed.href).not.toMatch(/token|@/);
    const r = await exchange(code);
    expect(r.errors).toBeUndefined();
    type Payload = { exchangeLoginCode: { token: string; user: { email: string; company: { id: number } } } };
    const { token, user } = (r.data as Payload).exchangeLoginCode;
    expect(user).toMatchObject({ email: 'new.person@acme.test', company: { id: s.demo.companies.DEMO } });
    const me = await s.gql('{ me { email } }', {}, bearer(token));
    expect(me.data).toEqual({ me: { email: 'new.person@acme.test' } });
    // The same subject again, with the e-mail changed at the provider: the same account.
    companyA.accounts.set('sub-new', { email: 'renamed@elsewhere.test', email_verified: true });
    const again = await signIn(companyA, 'sub-new', { company: 'DEMO', provider: 'company', redirect: '/' });
    const second = await exchange(again.searchParams.get('code')!);
    expect(second.data).toMatchObject({ exchangeLoginCode: { user: { email: 'new.person@acme.test' } } });
  });

  it('links an existing account of the same verified e-mail once; a second subject for it is refused', async () => {
    companyA.accounts.set('sub-player', { email: 'player2@demo.test', email_verified: true });
    const landed = await signIn(companyA, 'sub-player', { company: 'demo', provider: 'company', redirect: '/' });
    const r = await exchange(landed.searchParams.get('code')!);
    expect(r.data).toMatchObject({ exchangeLoginCode: { user: { id: s.demo.users['player2@demo.test'] } } });
    companyA.accounts.set('sub-impostor', { email: 'player2@demo.test', email_verified: true });
    const refused = await signIn(companyA, 'sub-impostor', { company: 'demo', provider: 'company', redirect: '/' });
    expect(refused.searchParams.get('error')).toBe('account_linked');
    expect(refused.searchParams.get('code')).toBeNull();
  });

  it('takes an unverified account from whoever registered it first: its password and sessions end', async () => {
    const prisma = s.t.db.prisma;
    // Someone registered victim@acme.test earlier with a password of theirs and never verified the address.
    const { id: _id, ...template } = await prisma.user.findFirstOrThrow({ where: { email: 'player2@demo.test' } });
    const squatter = await prisma.user.create({
      data: {
        ...template,
        extraFields: template.extraFields ?? [],
        notificationSettings: template.notificationSettings ?? {},
        email: 'victim@acme.test',
        externalId: 'victim@acme.test',
        emailVerified: false,
        tokenVersion: 0,
      },
    });
    const oldToken = await s.login('victim@acme.test', 'demo');
    expect((await s.gql('{ me { email } }', {}, bearer(oldToken))).data).toEqual({ me: { email: 'victim@acme.test' } });
    companyA.accounts.set('sub-victim', { email: 'victim@acme.test', email_verified: true });
    const landed = await signIn(companyA, 'sub-victim', { company: 'demo', provider: 'company', redirect: '/' });
    const r = await exchange(landed.searchParams.get('code')!);
    expect(r.data).toMatchObject({ exchangeLoginCode: { user: { id: squatter.id } } });
    await expect(s.login('victim@acme.test', 'demo')).rejects.toThrow(/failed/);
    const old = await s.gql('{ me { email } }', {}, bearer(oldToken));
    expect(old.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const { token } = (r.data as { exchangeLoginCode: { token: string } }).exchangeLoginCode;
    expect((await s.gql('{ me { email } }', {}, bearer(token))).data).toEqual({ me: { email: 'victim@acme.test' } });
    const after = await prisma.user.findUniqueOrThrow({ where: { id: squatter.id } });
    expect(after).toMatchObject({ emailVerified: true, passwordHash: null });
  });

  it('refuses an unverified e-mail and a domain the company did not list', async () => {
    companyA.accounts.set('sub-unverified', { email: 'someone@acme.test', email_verified: false });
    const unverified = await signIn(companyA, 'sub-unverified', {
      company: 'demo',
      provider: 'company',
      redirect: '/',
    });
    expect(unverified.searchParams.get('error')).toBe('email_not_verified');
    await s.t.db.prisma.company.update({ where: { id: s.demo.companies.DEMO }, data: { disableRegister: true } });
    try {
      companyA.accounts.set('sub-outsider', { email: 'outsider@other.test', email_verified: true });
      const outsider = await signIn(companyA, 'sub-outsider', { company: 'demo', provider: 'company', redirect: '/' });
      expect(outsider.searchParams.get('error')).toBe('not_admitted');
      companyA.accounts.set('sub-insider', { email: 'insider@acme.test', email_verified: true });
      const insider = await signIn(companyA, 'sub-insider', { company: 'demo', provider: 'company', redirect: '/' });
      expect(insider.searchParams.get('code')).toBeTruthy();
    } finally {
      await s.t.db.prisma.company.update({ where: { id: s.demo.companies.DEMO }, data: { disableRegister: false } });
    }
  });

  it('refuses a new person when the company is full (maxUsersAmount)', async () => {
    const id = s.demo.companies.DEMO;
    const active = await s.t.db.prisma.user.count({ where: { companyId: id, deletedAt: null } });
    await s.t.db.prisma.company.update({ where: { id }, data: { maxUsersAmount: active } });
    try {
      companyA.accounts.set('sub-late', { email: 'late@acme.test', email_verified: true });
      const late = await signIn(companyA, 'sub-late', { company: 'demo', provider: 'company', redirect: '/' });
      expect(late.searchParams.get('error')).toBe('company_full');
      expect(await s.t.db.prisma.user.count({ where: { email: 'late@acme.test' } })).toBe(0);
    } finally {
      await s.t.db.prisma.company.update({ where: { id }, data: { maxUsersAmount: 50 } });
    }
  });

  it("lets an invited person in where sign-up is closed, with the invitation's role, and accepts it", async () => {
    const prisma = s.t.db.prisma;
    const companyId = s.demo.companies.DEMO;
    await prisma.company.update({ where: { id: companyId }, data: { disableRegister: true } });
    try {
      const invite = (email: string, role: 'admin' | 'manager') =>
        prisma.invitation.create({ data: { companyId, email, role, expiresAt: new Date(Date.now() + 86_400_000) } });
      const invitation = await invite('guest@other.test', 'admin');
      companyA.accounts.set('sub-guest', { email: 'guest@other.test', email_verified: true });
      const landed = await signIn(companyA, 'sub-guest', { company: 'demo', provider: 'company', redirect: '/' });
      const r = await exchange(landed.searchParams.get('code')!);
      expect(r.errors).toBeUndefined();
      const user = await prisma.user.findFirstOrThrow({ where: { companyId, email: 'guest@other.test' } });
      expect(user.role).toBe('admin');
      expect((await prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).acceptedAt).not.toBeNull();
      // A manager's invitation is not taken by a company's own issuer, which the company's admins run.
      await invite('boss@other.test', 'manager');
      companyA.accounts.set('sub-boss', { email: 'boss@other.test', email_verified: true });
      const boss = await signIn(companyA, 'sub-boss', { company: 'demo', provider: 'company', redirect: '/' });
      expect(boss.searchParams.get('error')).toBe('not_admitted');
    } finally {
      await prisma.company.update({ where: { id: companyId }, data: { disableRegister: false } });
    }
  });

  it('refuses a deactivated person', async () => {
    companyA.accounts.set('sub-gone', { email: 'gone@acme.test', email_verified: true });
    const first = await signIn(companyA, 'sub-gone', { company: 'demo', provider: 'company', redirect: '/' });
    expect(first.searchParams.get('code')).toBeTruthy();
    await s.t.db.prisma.user.updateMany({ where: { email: 'gone@acme.test' }, data: { deletedAt: new Date() } });
    const again = await signIn(companyA, 'sub-gone', { company: 'demo', provider: 'company', redirect: '/' });
    expect(again.searchParams.get('error')).toBe('account_deactivated');
  });
});

describe("roles a company's own issuer cannot reach", () => {
  it('refuses to link, or sign in through a link to, a manager or reseller', async () => {
    const prisma = s.t.db.prisma;
    const partners = s.demo.companies.PARTNERS;
    const resellerToken = await s.loginAs('reseller');
    const input = {
      issuer: rogue.issuer,
      clientId: rogue.clientId,
      clientSecret: rogue.clientSecret,
      emailDomains: [],
    };
    const set = await s.gql(SET_SSO, { companyId: partners, input }, bearer(resellerToken));
    expect(set.errors).toBeUndefined();
    for (const email of ['manager@partners.test', 'reseller@partners.test']) {
      rogue.accounts.set(`sub-${email}`, { email, email_verified: true });
      const landed = await signIn(rogue, `sub-${email}`, { company: 'partners', provider: 'company', redirect: '/' });
      expect(landed.searchParams.get('error'), email).toBe('role_not_admitted');
      expect(landed.searchParams.get('code')).toBeNull();
    }
    expect(await prisma.ssoIdentity.count({ where: { issuer: rogue.issuer } })).toBe(0);
    // A link made before (or while the person was an admin) opens nothing once they are above admin.
    const manager = await prisma.user.findFirstOrThrow({ where: { email: 'manager@partners.test' } });
    await prisma.ssoIdentity.create({
      data: { companyId: partners, issuer: rogue.issuer, subject: 'sub-linked', userId: manager.id },
    });
    rogue.accounts.set('sub-linked', { email: 'manager@partners.test', email_verified: true });
    const linked = await signIn(rogue, 'sub-linked', { company: 'partners', provider: 'company', redirect: '/' });
    expect(linked.searchParams.get('error')).toBe('role_not_admitted');
    await prisma.ssoIdentity.deleteMany({ where: { issuer: rogue.issuer } });
    await prisma.companySso.deleteMany({ where: { companyId: partners } });
  });
});

describe('the checks of the flow', () => {
  it('refuses a tampered state, a missing browser cookie and an answer replayed', async () => {
    companyA.accounts.set('sub-check', { email: 'check@acme.test', email_verified: true });
    const started = await toCallback(companyA, 'sub-check', { company: 'demo', provider: 'company', redirect: '/' });
    const tampered = new URL(started.answer);
    tampered.searchParams.set('state', `${tampered.searchParams.get('state')}x`);
    const bad = await get(started.jar, tampered.href);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('invalid_state');
    // Without the cookie set at start: refused, and the sign-in is used up.
    started.jar.drop(s.url, 'prode_sso');
    const noCookie = await callback(started);
    expect(noCookie.searchParams.get('error')).toBe('browser_mismatch');
    const replay = await get(started.jar, started.answer);
    expect(replay.status).toBe(400);
  });

  it('refuses a wrong PKCE verifier and a wrong nonce', async () => {
    companyA.accounts.set('sub-pkce', { email: 'pkce@acme.test', email_verified: true });
    const started = await toCallback(companyA, 'sub-pkce', { company: 'demo', provider: 'company', redirect: '/' });
    const state = new URL(started.answer).searchParams.get('state')!;
    const { createHash } = await import('node:crypto');
    const stateHash = createHash('sha256').update(state).digest('hex');
    await s.t.db.prisma.ssoSignIn.update({ where: { stateHash }, data: { codeVerifier: 'x'.repeat(64) } });
    expect((await callback(started)).searchParams.get('error')).toBe('sign_in_rejected');

    const second = await toCallback(companyA, 'sub-pkce', { company: 'demo', provider: 'company', redirect: '/' });
    const state2 = new URL(second.answer).searchParams.get('state')!;
    const hash2 = createHash('sha256').update(state2).digest('hex');
    await s.t.db.prisma.ssoSignIn.update({ where: { stateHash: hash2 }, data: { nonce: 'not-the-nonce' } });
    expect((await callback(second)).searchParams.get('error')).toBe('sign_in_rejected');
  });

  it('refuses an ID token signed with a key the issuer does not publish', async () => {
    // A fresh issuer: its key set is first fetched with this token, so no earlier sign-in cached the right one.
    const forger = await startTestIssuer(callbackUrl, 'forger-client');
    const globex = s.demo.companies.GLOBEX;
    const input = (i: TestIssuer) => ({ issuer: i.issuer, clientId: i.clientId, clientSecret: i.clientSecret });
    try {
      const set = await s.gql(
        SET_SSO,
        { companyId: globex, input: { ...input(forger), emailDomains: [] } },
        bearer(globexAdminToken),
      );
      expect(set.errors).toBeUndefined();
      forger.publishWrongKey = true;
      forger.accounts.set('sub-forged', { email: 'forged@globex.test', email_verified: true });
      const landed = await signIn(forger, 'sub-forged', { company: 'GLOBEX', provider: 'company', redirect: '/' });
      expect(landed.searchParams.get('error')).toBe('sign_in_rejected');
      expect(landed.searchParams.get('code')).toBeNull();
      expect(await s.t.db.prisma.user.count({ where: { email: 'forged@globex.test' } })).toBe(0);
    } finally {
      await s.gql(
        SET_SSO,
        { companyId: globex, input: { ...input(companyB), emailDomains: [] } },
        bearer(globexAdminToken),
      );
      await forger.close();
    }
  });

  it("does not let company A's provider sign into company B", async () => {
    companyA.accounts.set('sub-cross', { email: 'cross@acme.test', email_verified: true });
    companyB.accounts.set('sub-cross', { email: 'cross@acme.test', email_verified: true });
    const fromA = await toCallback(companyA, 'sub-cross', { company: 'demo', provider: 'company', redirect: '/' });
    const forB = await toCallback(companyB, 'sub-cross', { company: 'GLOBEX', provider: 'company', redirect: '/' });
    // A's code and issuer with B's state and B's browser.
    const mixed = new URL(fromA.answer);
    mixed.searchParams.set('state', new URL(forB.answer).searchParams.get('state')!);
    const landed = await callback(forB, mixed.href);
    expect(landed.searchParams.get('error')).toBe('sign_in_rejected');
    expect(
      await s.t.db.prisma.user.count({ where: { email: 'cross@acme.test', companyId: s.demo.companies.GLOBEX } }),
    ).toBe(0);
  });

  it('turns a code into a token once, and not after 60 seconds', async () => {
    companyA.accounts.set('sub-once', { email: 'once@acme.test', email_verified: true });
    const landed = await signIn(companyA, 'sub-once', { company: 'demo', provider: 'company', redirect: '/' });
    const code = landed.searchParams.get('code')!;
    const [a, b] = await Promise.all([exchange(code), exchange(code)]);
    const wins = [a, b].filter((r) => r.data?.exchangeLoginCode);
    expect(wins).toHaveLength(1);
    expect([a, b].find((r) => r.errors)?.errors?.[0].extensions?.code).toBe('NOT_FOUND');

    const late = await signIn(companyA, 'sub-once', { company: 'demo', provider: 'company', redirect: '/' });
    await s.t.db.prisma.ssoLoginCode.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    const r = await exchange(late.searchParams.get('code')!);
    expect(r.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('refuses an unsafe redirect with a page, and unknown companies back at the app', async () => {
    for (const redirect of ['//evil.test/x', 'https://evil.test/', '/\\evil.test', 'home']) {
      const res = await fetch(
        `${s.url}/auth/sso/start?company=demo&provider=company&redirect=${encodeURIComponent(redirect)}`,
        {
          redirect: 'manual',
        },
      );
      expect(res.status, redirect).toBe(400);
    }
    const res = await fetch(`${s.url}/auth/sso/start?company=nope&provider=company&redirect=/`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('unknown_company');
  });

  it('keeps working when the issuer rotates its signing key', async () => {
    companyA.accounts.set('sub-rotate', { email: 'rotate@acme.test', email_verified: true });
    const before = await signIn(companyA, 'sub-rotate', { company: 'demo', provider: 'company', redirect: '/' });
    expect(before.searchParams.get('code')).toBeTruthy();
    await companyA.rotateKeys();
    // The cached key set is refetched for an unknown key once it is a minute old (openid-client's rule).
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      const after = await signIn(companyA, 'sub-rotate', { company: 'demo', provider: 'company', redirect: '/' });
      expect(after.searchParams.get('error')).toBeNull();
      expect(after.searchParams.get('code')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Google', () => {
  it('signs into a company that allows it, and is refused where disableGoogleLogin or loginStrategy 1', async () => {
    google.accounts.set('g-1', { email: 'someone@gmail.test', email_verified: true, name: 'G Person' });
    const landed = await signIn(google, 'g-1', { company: 'demo', provider: 'google', redirect: '/' });
    expect(landed.searchParams.get('code')).toBeTruthy();
    const id = s.demo.companies.DEMO;
    await s.t.db.prisma.company.update({ where: { id }, data: { disableGoogleLogin: true } });
    const off = await fetch(`${s.url}/auth/sso/start?company=demo&provider=google&redirect=/`, { redirect: 'manual' });
    expect(new URL(off.headers.get('location')!).searchParams.get('error')).toBe('google_disabled');
    await s.t.db.prisma.company.update({ where: { id }, data: { disableGoogleLogin: false, loginStrategy: 1 } });
    const only = await fetch(`${s.url}/auth/sso/start?company=demo&provider=google&redirect=/`, { redirect: 'manual' });
    expect(new URL(only.headers.get('location')!).searchParams.get('error')).toBe('company_provider_only');
    await s.t.db.prisma.company.update({ where: { id }, data: { loginStrategy: 0 } });
  });
});

describe('the limits of one address', () => {
  it('counts every start and every refused callback; a failed discovery is kept 30 seconds', async () => {
    const limited = await startTestServer({
      env: { APP_URL, SSO_START_RATE_LIMIT_MAX: '6', LOGIN_RATE_LIMIT_MAX: '2' },
    });
    let discoveries = 0;
    const failing = createServer((_req, res) => {
      discoveries++;
      res.statusCode = 500;
      res.end();
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    try {
      limited.config.sso.publicUrl = limited.url;
      const prisma = limited.t.db.prisma;
      const own = (companyId: number, issuer: string) =>
        prisma.companySso.create({ data: { companyId, issuer, clientId: 'c', clientSecret: 's', emailDomains: [] } });
      await own(limited.demo.companies.DEMO, `http://127.0.0.1:${(failing.address() as { port: number }).port}`);
      await own(limited.demo.companies.GLOBEX, companyA.issuer);
      const start = async (company: string) => {
        const res = await fetch(`${limited.url}/auth/sso/start?company=${company}&provider=company&redirect=/`, {
          redirect: 'manual',
        });
        const location = res.headers.get('location')!;
        return location.startsWith(companyA.issuer) ? 'started' : new URL(location).searchParams.get('error');
      };
      expect([await start('demo'), await start('demo')]).toEqual(['provider_unavailable', 'provider_unavailable']);
      expect(discoveries).toBe(1);
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
      try {
        vi.setSystemTime(Date.now() + 31_000);
        expect(await start('demo')).toBe('provider_unavailable');
        expect(discoveries).toBe(2);
        const outcomes = [await start('GLOBEX'), await start('GLOBEX'), await start('nope'), await start('GLOBEX')];
        expect(outcomes).toEqual(['started', 'started', 'unknown_company', 'rate_limited']);
      } finally {
        vi.useRealTimers();
      }
      expect(await prisma.ssoSignIn.count()).toBe(2);
      // Callbacks naming no sign-in are refusals: counted, two per address here.
      const callback = () => fetch(`${limited.url}/auth/sso/callback?state=nothing&code=x`, { redirect: 'manual' });
      for (const expected of ['invalid_state', 'invalid_state', 'rate_limited']) {
        const res = await callback();
        expect(res.status).toBe(400);
        expect(await res.text()).toContain(expected);
      }
    } finally {
      await new Promise<void>((resolve) => failing.close(() => resolve()));
      await limited.close();
    }
  });
});

describe('the settings', () => {
  it('shows the provider to its administrators only, never the secret, and checks discovery', async () => {
    const query = `query { company { sso { issuer clientId emailDomains } } }`;
    const admin = await s.gql(query, {}, { ...bearer(adminToken), 'x-app-path': 'demo' });
    expect(admin.data).toMatchObject({ company: { sso: { issuer: companyA.issuer } } });
    const player = await s.gql(query, {}, { ...bearer(await s.loginAs('player')), 'x-app-path': 'demo' });
    expect(player.data).toEqual({ company: { sso: null } });
    const secret = await s.gql('query { company { sso { clientSecret } } }', {}, bearer(adminToken));
    expect(secret.errors?.[0].message).toMatch(/clientSecret/);
    const input = { issuer: 'http://127.0.0.1:1', clientId: 'x', clientSecret: 'y', emailDomains: [] };
    const down = await s.gql(SET_SSO, { companyId: s.demo.companies.DEMO, input }, bearer(adminToken));
    expect(down.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const foreign = await s.gql(SET_SSO, { companyId: s.demo.companies.GLOBEX, input }, bearer(adminToken));
    expect(foreign.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const bad = { ...input, issuer: companyA.issuer, emailDomains: ['Not A Domain'] };
    const domains = await s.gql(SET_SSO, { companyId: s.demo.companies.DEMO, input: bad }, bearer(adminToken));
    expect(domains.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('what a provider may send and name', () => {
  it('refuses a discovery document over 512 KiB, declared or not, and tells the admin no detail', async () => {
    let padding = 0;
    let declareLength = true;
    const server = createServer((_req, res) => {
      const { port } = server.address() as { port: number };
      const issuer = `http://127.0.0.1:${port}`;
      const body = JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        padding: 'x'.repeat(padding),
      });
      res.setHeader('content-type', 'application/json');
      if (declareLength) res.setHeader('content-length', Buffer.byteLength(body));
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const globex = s.demo.companies.GLOBEX;
    const save = () =>
      s.gql(
        SET_SSO,
        { companyId: globex, input: { issuer, clientId: 'c', clientSecret: 's', emailDomains: [] } },
        bearer(globexAdminToken),
      );
    try {
      padding = MAX_PROVIDER_BODY_BYTES - 1000;
      expect((await save()).errors).toBeUndefined();
      padding = MAX_PROVIDER_BODY_BYTES;
      for (const declared of [true, false]) {
        declareLength = declared;
        const r = await save();
        expect(r.errors?.[0].extensions?.code, `declared: ${declared}`).toBe('BAD_USER_INPUT');
        expect(r.errors?.[0].message).not.toMatch(/bytes|127\.0\.0\.1/);
      }
    } finally {
      const input = { issuer: companyB.issuer, clientId: companyB.clientId, clientSecret: companyB.clientSecret };
      await s.gql(SET_SSO, { companyId: globex, input: { ...input, emailDomains: [] } }, bearer(globexAdminToken));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("refuses a loopback issuer's http endpoint elsewhere than loopback (its key set on another address)", async () => {
    const sly = await startTestIssuer(callbackUrl, 'sly-client');
    // The key set served over http on this machine's non-loopback address: a sign-in that fetched it would succeed.
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && i.family === 'IPv4');
    let keySetRequests = 0;
    const keys = createServer((_req, res) => {
      keySetRequests++;
      void fetch(`${sly.issuer}/jwks`).then(async (r) => res.end(await r.text()));
    });
    const host = outside?.address ?? '169.254.169.254';
    if (outside) await new Promise<void>((resolve) => keys.listen(0, host, resolve));
    const port = outside ? (keys.address() as { port: number }).port : 80;
    const globex = s.demo.companies.GLOBEX;
    const input = (i: TestIssuer) => ({ issuer: i.issuer, clientId: i.clientId, clientSecret: i.clientSecret });
    try {
      sly.advertisedJwksUri = `http://${host}:${port}/jwks`;
      const set = await s.gql(
        SET_SSO,
        { companyId: globex, input: { ...input(sly), emailDomains: [] } },
        bearer(globexAdminToken),
      );
      expect(set.errors).toBeUndefined();
      sly.accounts.set('sub-sly', { email: 'sly@globex.test', email_verified: true });
      const landed = await signIn(sly, 'sub-sly', { company: 'GLOBEX', provider: 'company', redirect: '/' });
      expect(landed.searchParams.get('error')).toBe('sign_in_rejected');
      expect(keySetRequests).toBe(0);
      expect(await s.t.db.prisma.user.count({ where: { email: 'sly@globex.test' } })).toBe(0);
    } finally {
      await s.gql(
        SET_SSO,
        { companyId: globex, input: { ...input(companyB), emailDomains: [] } },
        bearer(globexAdminToken),
      );
      await sly.close();
      if (outside) await new Promise<void>((resolve) => keys.close(() => resolve()));
    }
  });
});
