// The matrix's rows for the REST routes (matrix.ts says what a row is and what the matrix proves).
import { expect } from 'vitest';
import { DEMO_PASSWORD } from '../../helpers/app.ts';
import { FB, names, NF, onlyDemoEmails, resellerToInitech, SNAP, switchingToGlobex, UN, type Case } from './matrix.ts';

const USERS_CSV = 'GET /exports/users.csv';
const EXPORTS = [
  { op: 'GET /exports/rankings/:tournamentId.csv', path: (cup: number) => `/exports/rankings/${cup}.csv` },
  { op: 'GET /exports/predictions/:tournamentId.csv', path: (cup: number) => `/exports/predictions/${cup}.csv` },
  { op: USERS_CSV, path: () => '/exports/users.csv' },
];

/**
 * An export's rows: players are refused; a tournament of another company is not found; the users export, which
 * names no tournament, shows the company the request acts on (its own where a header is ignored or refused).
 */
function exportCases({ op, path }: (typeof EXPORTS)[number]): Case[] {
  const elsewhere = op === USERS_CSV ? 'OK' : NF;
  const demoRows = (d: Array<Record<string, string>>) => expect(d.length).toBeGreaterThan(0);
  // prettier-ignore
  return [
    { op, as: 'player', why: 'a player exports nothing, not even of the own company',
      rest: { method: 'GET', path: (x) => path(x.demoCup) }, expect: FB },
    { op, as: 'admin', why: 'own company: Demo Corp rows only', rest: { method: 'GET', path: (x) => path(x.demoCup) },
      expect: 'OK', check: demoRows },
    ...switchingToGlobex({ op, why: 'an export', rest: { method: 'GET', path: (x) => path(x.globexCup) },
      expect: [FB, elsewhere] }),
    { op, as: 'reseller', h: { 'x-app-host': 'prode.globex.test' }, why: 'reaches Globex: Globex rows only',
      rest: { method: 'GET', path: (x) => path(x.globexCup) }, expect: 'OK', forbid: ['demo', 'initech', 'hooli'] },
    { op, as: 'reseller', h: { 'x-app-path': 'demo' }, why: "Globex's tournament while acting on Demo Corp",
      rest: { method: 'GET', path: (x) => path(x.globexCup) }, expect: elsewhere,
      forbid: ['globex', 'initech', 'hooli'] },
    ...resellerToInitech({ op, why: 'an export', rest: { method: 'GET', path: (x) => path(x.demoCup) },
      expect: [FB, elsewhere] }),
  ];
}

// A table, one row per request, laid out by hand: prettier would give each property of a row a line of its own.
// prettier-ignore
export const REST_CASES: Case[] = [
  // The post routes take the tenant from x-app-company only; the others from x-app-path / x-app-host (docs/rest.md).
  { op: 'GET /posts/:id', as: 'player', why: "Globex's post",
    rest: { method: 'GET', path: (x) => `/posts/${x.globexPost}` }, expect: NF },
  { op: 'GET /posts/:id', as: 'admin', why: "Globex's post",
    rest: { method: 'GET', path: (x) => `/posts/${x.globexPost}` }, expect: NF },
  ...switchingToGlobex({
    op: 'GET /posts/:id', why: "Globex's post", rest: { method: 'GET', path: (x) => `/posts/${x.globexPost}` },
    expect: [FB, NF],
  }),
  { op: 'GET /posts/:id', as: 'player', why: 'an own post shows no other company',
    rest: { method: 'GET', path: (x) => `/posts/${x.demoPost}` }, expect: 'OK', check: onlyDemoEmails },
  { op: 'GET /posts/:id', as: 'reseller', h: { 'x-app-company': 'GLOBEX' }, why: "reaches Globex's post",
    rest: { method: 'GET', path: (x) => `/posts/${x.globexPost}` }, expect: 'OK',
    check: (d, x) => expect(d.id).toBe(x.globexPost) },
  { op: 'GET /posts/:id', as: 'reseller', h: { 'x-app-company': 'DEMO' },
    why: "Initech's post while acting on Demo Corp", rest: { method: 'GET', path: (x) => `/posts/${x.initechPost}` },
    expect: NF },
  { op: 'GET /posts/:id', as: 'reseller', why: "Initech's post from its own company",
    rest: { method: 'GET', path: (x) => `/posts/${x.initechPost}` }, expect: NF },
  ...resellerToInitech({
    op: 'GET /posts/:id', why: "Initech's post", rest: { method: 'GET', path: (x) => `/posts/${x.initechPost}` },
    expect: [FB, NF],
  }),

  { op: 'GET /posts/:postId/comments', as: 'player', why: "Globex's comments",
    rest: { method: 'GET', path: (x) => `/posts/${x.globexPost}/comments` }, expect: NF },
  ...switchingToGlobex({ op: 'GET /posts/:postId/comments', why: "Globex's comments",
    rest: { method: 'GET', path: (x) => `/posts/${x.globexPost}/comments` }, expect: [FB, NF] }),
  { op: 'GET /posts/:postId/comments', as: 'reseller', h: { 'x-app-company': 'GLOBEX' },
    why: "reaches Globex's comments", rest: { method: 'GET', path: (x) => `/posts/${x.globexPost}/comments` },
    expect: 'OK', check: (d) => expect(d.length).toBeGreaterThan(0) },
  { op: 'GET /posts/:postId/comments', as: 'reseller', h: { 'x-app-company': 'GLOBEX' },
    why: "Initech's comments while acting on Globex",
    rest: { method: 'GET', path: (x) => `/posts/${x.initechPost}/comments` }, expect: NF },
  ...resellerToInitech({ op: 'GET /posts/:postId/comments', why: "Initech's comments",
    rest: { method: 'GET', path: (x) => `/posts/${x.initechPost}/comments` }, expect: [FB, NF] }),

  { op: 'GET /invitations/jwt/:jwt', as: 'anon', why: 'an access token is not an invitation link',
    rest: { method: 'GET', path: (x) => `/invitations/jwt/${x.jwt.accessAsLink}` }, expect: NF },
  { op: 'GET /invitations/jwt/:jwt', as: 'anon', why: "Globex's revoked invitation",
    rest: { method: 'GET', path: (x) => `/invitations/jwt/${x.jwt.globexRevokedLink}` }, expect: NF },
  { op: 'GET /invitations/jwt/:jwt', as: 'player', why: 'a forged Globex link',
    rest: { method: 'GET', path: (x) => `/invitations/jwt/${x.jwt.forgedGlobexLink}` }, expect: NF },
  { op: 'GET /invitations/jwt/:jwt', as: 'anon', why: 'a valid Initech link is public by design and carries no secret',
    rest: { method: 'GET', path: (x) => `/invitations/jwt/${x.jwt.initechLink}` }, expect: 'OK',
    forbid: ['demo', 'globex', 'hooli'], check: (d) => expect(d.company.name).toBe('Initech') },
  { op: 'GET /invitations/jwt/:jwt', as: 'anon', h: { 'x-app-path': 'demo' },
    why: 'a valid Globex link with Demo Corp named by header shows nothing of Demo Corp',
    rest: { method: 'GET', path: (x) => `/invitations/jwt/${x.jwt.globexLink}` }, expect: 'OK',
    forbid: ['demo', 'initech', 'hooli'] },

  { op: 'PATCH /invitations/:id', as: 'admin', why: "Globex's invitation",
    rest: { method: 'PATCH', path: (x) => `/invitations/${x.globexInvitation}`, body: () => ({ name: 'hijacked' }) },
    expect: NF, unchanged: SNAP.invitations },
  {
    op: 'PATCH /invitations/:id', as: 'admin', h: { 'x-app-path': 'demo' }, why: 'moving an own invitation into Globex',
    rest: { method: 'PATCH', path: (x) => `/invitations/${x.demoInvitation}`,
      body: (x) => ({ company: { id: x.globex } }) },
    expect: FB, unchanged: SNAP.invitations,
  },
  ...switchingToGlobex({ op: 'PATCH /invitations/:id', why: "Globex's invitation",
    rest: { method: 'PATCH', path: (x) => `/invitations/${x.globexInvitation}`, body: () => ({ name: 'hijacked' }) },
    expect: [FB, NF], unchanged: SNAP.invitations }),
  {
    op: 'PATCH /invitations/:id', as: 'reseller', h: { 'x-app-host': 'prode.globex.test' },
    why: "changes a managed company's invitation",
    rest: { method: 'PATCH', path: (x) => `/invitations/${x.globexInvitation}`,
      body: () => ({ name: 'Globex Hire (REST)' }) },
    expect: 'OK', check: (d) => expect(d).toMatchObject({ name: 'Globex Hire (REST)', company: { name: 'Globex' } }),
  },
  { op: 'PATCH /invitations/:id', as: 'reseller', h: { 'x-app-path': 'demo' },
    why: "Initech's invitation while acting on Demo Corp",
    rest: { method: 'PATCH', path: (x) => `/invitations/${x.initechInvitation}`, body: () => ({ name: 'hijacked' }) },
    expect: NF, unchanged: SNAP.invitations },
  ...resellerToInitech({ op: 'PATCH /invitations/:id', why: "Initech's invitation",
    rest: { method: 'PATCH', path: (x) => `/invitations/${x.initechInvitation}`, body: () => ({ name: 'hijacked' }) },
    expect: [FB, NF], unchanged: SNAP.invitations }),

  { op: 'GET /companies/search', as: 'player', why: 'only the own company',
    rest: { method: 'GET', path: () => '/companies/search' }, expect: 'OK',
    check: (d) => expect(names(d)).toEqual(['Demo Corp']) },
  { op: 'GET /companies/search', as: 'admin', why: 'a search for Globex',
    rest: { method: 'GET', path: () => '/companies/search?search=globex' }, expect: 'OK',
    check: (d) => expect(d).toEqual([]) },
  ...switchingToGlobex({
    op: 'GET /companies/search', why: 'search', rest: { method: 'GET', path: () => '/companies/search' },
    expect: ['OK', FB], check: (d) => expect(names(d)).toEqual(['Demo Corp']),
  }),
  { op: 'GET /companies/search', as: 'reseller', why: 'its own and the managed companies only',
    rest: { method: 'GET', path: () => '/companies/search?take=100' }, expect: 'OK',
    check: (d) => expect(names(d)).toEqual(['Channel Partners', 'Demo Corp', 'Globex']) },
  { op: 'GET /companies/search', as: 'reseller', h: { 'x-app-path': 'demo' }, why: 'a search for Initech',
    rest: { method: 'GET', path: () => '/companies/search?search=ini' }, expect: 'OK',
    check: (d) => expect(d).toEqual([]) },
  ...resellerToInitech({
    op: 'GET /companies/search', why: 'search', rest: { method: 'GET', path: () => '/companies/search' },
    expect: ['OK', FB], check: (d) => expect(names(d)).toEqual(['Channel Partners', 'Demo Corp', 'Globex']),
  }),

  { op: 'GET /tournaments/me', as: 'player', why: "not Globex's custom tournament",
    rest: { method: 'GET', path: () => '/tournaments/me' }, expect: 'OK',
    check: (d) => { expect(names(d)).toEqual(['Prode Demo Cup']); onlyDemoEmails(d); } },
  ...switchingToGlobex({
    op: 'GET /tournaments/me', why: 'tournaments', rest: { method: 'GET', path: () => '/tournaments/me' },
    expect: ['OK', FB], check: (d) => expect(names(d)).toEqual(['Prode Demo Cup']),
  }),
  { op: 'GET /tournaments/me', as: 'reseller', h: { 'x-app-host': 'prode.globex.test' },
    why: "reaches Globex's tournaments", rest: { method: 'GET', path: () => '/tournaments/me' }, expect: 'OK',
    check: (d) => expect(names(d)).toEqual(['Globex Office Cup', 'Prode Demo Cup']) },
  { op: 'GET /tournaments/me', as: 'reseller', h: { 'x-app-path': 'demo' }, why: "reaches Demo Corp's tournaments",
    rest: { method: 'GET', path: () => '/tournaments/me' }, expect: 'OK', forbid: ['globex', 'initech', 'hooli'],
    check: (d) => expect(names(d)).toEqual(['Prode Demo Cup']) },
  ...resellerToInitech({
    op: 'GET /tournaments/me', why: 'tournaments', rest: { method: 'GET', path: () => '/tournaments/me' },
    expect: ['OK', FB], check: (d) => expect(d).toEqual([]),
  }),

  // The CSV exports take the tenant from x-app-path / x-app-host, as the routes above; x-app-company is ignored.
  ...EXPORTS.flatMap(exportCases),

  {
    op: 'POST /auth/login', as: 'anon', h: { 'x-app-host': 'prode.globex.test' },
    why: 'Demo Corp credentials against Globex',
    rest: { method: 'POST', path: () => '/auth/login', body: () => ({ email: 'admin@demo.test',
      password: DEMO_PASSWORD }) },
    expect: UN, unchanged: SNAP.users,
  },
  {
    op: 'POST /auth/login', as: 'anon', h: { 'x-app-path': 'demo' }, why: 'Globex credentials against Demo Corp',
    rest: { method: 'POST', path: () => '/auth/login', body: () => ({ email: 'admin@globex.test',
      password: DEMO_PASSWORD }) },
    expect: UN, unchanged: SNAP.users,
  },
  {
    op: 'POST /auth/login', as: 'anon', h: { 'x-app-path': 'partners' },
    why: 'Initech credentials against the reseller',
    rest: { method: 'POST', path: () => '/auth/login', body: () => ({ email: 'admin@initech.test',
      password: DEMO_PASSWORD }) },
    expect: UN, unchanged: SNAP.users,
  },
  {
    op: 'POST /auth/login', as: 'anon', h: { 'x-app-path': 'demo' },
    why: 'own credentials: the user carries no other company',
    rest: { method: 'POST', path: () => '/auth/login', body: () => ({ email: 'admin@demo.test',
      password: DEMO_PASSWORD }) },
    expect: 'OK', forbid: ['globex', 'initech', 'hooli'], check: (d) => expect(d.user.email).toBe('admin@demo.test'),
  },

  // Single sign-on: the company is named in the address, never by the caller's token or tenant headers, and what
  // the routes tell a signed-out caller is what a login page shows (a company's issuer and client stay unnamed).
  {
    op: 'GET /auth/sso/methods', as: 'anon', why: "Globex's login page: that it has a provider, never which",
    rest: { method: 'GET', path: () => '/auth/sso/methods?company=globex' },
    expect: 'OK', forbid: ['demo', 'initech', 'hooli'],
    check: (d) => {
      expect(d).toMatchObject({ loginStrategy: 0, password: true, providers: [{ provider: 'company', issuer: null }] });
      expect(JSON.stringify(d)).not.toMatch(/sso\.globex\.test|globex-client/);
    },
  },
  {
    op: 'GET /auth/sso/methods', as: 'player', h: { 'x-app-path': 'demo' },
    why: 'the address names Initech, not the token',
    rest: { method: 'GET', path: () => '/auth/sso/methods?company=INITECH' },
    expect: 'OK', forbid: ['demo', 'globex', 'hooli'],
    check: (d) => expect(d).toEqual({ loginStrategy: 0, password: true, providers: [] }),
  },
  {
    op: 'GET /auth/sso/start', as: 'player', h: { 'x-app-path': 'demo' },
    why: 'Initech has no provider: back to the app',
    rest: { method: 'GET', path: () => '/auth/sso/start?company=initech&provider=company&redirect=/' },
    expect: 'REDIRECT', forbid: ['demo', 'globex', 'hooli'],
    check: (d) => expect(new URL(d).searchParams.get('error')).toBe('no_company_provider'),
  },
  {
    op: 'GET /auth/sso/callback', as: 'admin', h: { 'x-app-path': 'demo' }, why: 'no pending sign-in: a page, no code',
    rest: { method: 'GET', path: () => '/auth/sso/callback?state=made-up&code=made-up' },
    expect: 'PAGE', unchanged: SNAP.users, check: (d) => expect(d).toContain('invalid_state'),
  },
  {
    op: 'GET /auth/sso/done', as: 'anon', why: 'the page shows only what its address carries',
    rest: { method: 'GET', path: () => '/auth/sso/done?error=not_admitted' },
    expect: 'PAGE', check: (d) => expect(d).toContain('not_admitted'),
  },
  {
    op: 'POST /auth/sso/exchange', as: 'anon', h: { 'x-app-path': 'globex' }, why: 'a made-up code opens nothing',
    rest: { method: 'POST', path: () => '/auth/sso/exchange', body: () => ({ code: 'z'.repeat(43) }) },
    expect: NF, unchanged: SNAP.users,
  },
];
