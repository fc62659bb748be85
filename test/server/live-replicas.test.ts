// Two gateway processes on one PostgreSQL, as a company that outgrew one machine runs them: what is written
// through one replica reaches the other replica's subscribers within a second, only those it concerns, and a
// notification both replicas could deliver reaches its user once.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, TEST_JWT_SECRET } from '../helpers/app.ts';
import { emptyTarget, suiteProvider } from '../helpers/db.ts';
import { activeSubscriptions, liveClient, untilSubscribed, type LiveClient } from '../helpers/live.ts';
import { ROOT, runScript, startService, type Service } from '../helpers/process.ts';

const env = (url: string) => ({
  DATABASE_URL: url,
  JWT_SECRET: TEST_JWT_SECRET,
  PASSWORD_HASH_COST: '14',
  RATE_LIMIT_MAX: '0',
  LOGIN_RATE_LIMIT_MAX: '1000',
  // Both replicas tick every second: delivery must still happen once.
  NOTIFICATIONS_INTERVAL_SECONDS: '1',
  SHUTDOWN_DELAY_MS: '0',
});

describe.runIf(suiteProvider === 'postgresql')('two replicas on one PostgreSQL', () => {
  let a: Service;
  let b: Service;
  let db: pg.Client;
  let drop: () => Promise<void>;
  let url: string;
  const clients: LiveClient[] = [];
  let tournamentId: number;
  let matchId: number;

  const login = async (url: string, email: string, appPath?: string) => {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(appPath ? { 'x-app-path': appPath } : {}) },
      body: JSON.stringify({
        query: 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }',
        variables: { e: email, p: DEMO_PASSWORD },
      }),
    });
    const body = (await res.json()) as { data?: { login: { token: string } } };
    if (!body.data?.login) throw new Error(`login ${email}: ${JSON.stringify(body)}`);
    return body.data.login.token;
  };
  const gql = async (url: string, token: string, query: string, variables: object, appPath?: string) => {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        ...(appPath ? { 'x-app-path': appPath } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data?: any; errors?: unknown[] };
  };
  const watch = (url: string, token: string, query: string, variables?: object, appPath?: string) => {
    const c = liveClient(url, { authorization: `Bearer ${token}`, ...(appPath ? { 'x-app-path': appPath } : {}) });
    clients.push(c);
    return c.subscribe(query, variables as Record<string, unknown>);
  };

  beforeAll(async () => {
    const target = await emptyTarget('postgresql');
    drop = target.drop;
    url = (target.target as { url: string }).url;
    // One after the other: the first migrates and seeds the empty database.
    a = await startService(env(url));
    b = await startService(env(url));
    db = new pg.Client({ connectionString: url });
    await db.connect();
    tournamentId = (await db.query('SELECT id FROM "Tournament" ORDER BY id LIMIT 1')).rows[0].id;
    matchId = (
      await db.query(`SELECT id FROM "Match" WHERE "tournamentId" = $1 AND status = 'SCHEDULED' ORDER BY id LIMIT 1`, [
        tournamentId,
      ])
    ).rows[0].id;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.end();
    await drop?.();
  });

  it('a result set through B reaches a matchUpdated subscriber on A within a second', async () => {
    const player = await login(a.url, 'player1@demo.test', 'demo');
    const manager = await login(b.url, 'manager@partners.test', 'partners');
    const seen = watch(
      a.url,
      player,
      `subscription($t: Int!) { matchUpdated(tournamentId: $t) { match { id status homeTeamGoals awayTeamGoals } } }`,
      { t: tournamentId },
      'demo',
    );
    await untilSubscribed(a.url, 1);
    await db.query(`UPDATE "Match" SET date = now() - interval '1 minute' WHERE id = $1`, [matchId]);
    const started = Date.now();
    const r = await gql(
      b.url,
      manager,
      `mutation($i: SetMatchResultInput!) { setMatchResult(input: $i) { id } }`,
      { i: { matchId, status: 'IN_PLAY', homeTeamGoals: 1, awayTeamGoals: 0 } },
      'partners',
    );
    expect(r.errors).toBeUndefined();
    const event = await seen.next(1000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(event.data.matchUpdated.match).toEqual({
      id: matchId,
      status: 'IN_PLAY',
      homeTeamGoals: 1,
      awayTeamGoals: 0,
    });
  });

  it("a ranking change through B reaches its company's subscribers on A, and nobody of another company", async () => {
    const demoPlayer = await login(a.url, 'player1@demo.test', 'demo');
    const globexPlayer = await login(a.url, 'player1@globex.test');
    const demoAdmin = await login(b.url, 'admin@demo.test', 'demo');
    const RANKING = `subscription($t: Int!) { rankingChanged(tournamentId: $t) { tournamentId
      me { position points } } }`;
    const demo = watch(a.url, demoPlayer, RANKING, { t: tournamentId }, 'demo');
    const globex = watch(a.url, globexPlayer, RANKING, { t: tournamentId });
    await untilSubscribed(a.url, 3);
    const company = (await db.query(`SELECT id FROM "Company" WHERE code = 'DEMO'`)).rows[0].id;
    const r = await gql(
      b.url,
      demoAdmin,
      `mutation($c: Int!) { updateScoringSettings(companyId: $c, input: { exactScore: 7 }, confirm: true) {
        rescoredPredictions } }`,
      { c: company },
      'demo',
    );
    expect(r.errors).toBeUndefined();
    const event = await demo.next(1000);
    expect(event.data.rankingChanged.tournamentId).toBe(tournamentId);
    expect(await globex.quiet(1000)).toBe(true);
  });

  it("results imported by the CLI reach the replicas' subscribers", async () => {
    const mini = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/openfootball/mini-cup.json'), 'utf8'));
    const dir = mkdtempSync(join(tmpdir(), 'prode-live-import-'));
    const write = (name: string, results: boolean) => {
      const path = join(dir, name);
      const matches = mini.matches.map((m: object) => (results ? m : { ...m, score: undefined }));
      writeFileSync(path, JSON.stringify({ name: 'Live Cup', matches }));
      return path;
    };
    const importer = async (file: string) => {
      const run = runScript('scripts/import-openfootball.ts', { DATABASE_URL: url, JWT_SECRET: TEST_JWT_SECRET }, [
        file,
        '--company',
        'DEMO',
      ]);
      expect(await run.exited, run.output()).toBe(0);
    };
    await importer(write('fixtures.json', false));
    const cup = (await db.query(`SELECT id FROM "Tournament" WHERE name = 'Live Cup'`)).rows[0].id;
    const player = await login(a.url, 'player1@demo.test', 'demo');
    const before = await activeSubscriptions(a.url);
    const seen = watch(
      a.url,
      player,
      `subscription($t: Int!) { matchUpdated(tournamentId: $t) { match { id status homeTeamGoals } } }`,
      { t: cup },
      'demo',
    );
    await untilSubscribed(a.url, before + 1);
    await importer(write('results.json', true));
    const event = await seen.next(5000);
    expect(event.data.matchUpdated.match.status).toBe('FINISHED');
    expect(typeof event.data.matchUpdated.match.homeTeamGoals).toBe('number');
    rmSync(dir, { recursive: true, force: true });
  });

  it('a notification is delivered once although both replicas tick', async () => {
    const player = await login(b.url, 'player2@demo.test', 'demo');
    const before = await activeSubscriptions(a.url);
    const seen = watch(a.url, player, `subscription { notificationReceived { notification { id type } } }`, {}, 'demo');
    await untilSubscribed(a.url, before + 1);
    const user = (await db.query(`SELECT id, "companyId" FROM "User" WHERE email = 'player2@demo.test'`)).rows[0];
    const { rows } = await db.query(
      `INSERT INTO "Notification" ("companyId", "userId", type, payload, "dedupeKey")
       VALUES ($1, $2, 'rankingsUpdated', '{}', 'replicas-test') RETURNING id`,
      [user.companyId, user.id],
    );
    const id = rows[0].id;
    // Both replicas tick every second: within a few ticks it is delivered, and nothing comes twice.
    const deliveries: number[] = [];
    const deadline = Date.now() + 8000;
    while (Date.now() < deadline && !deliveries.includes(id)) {
      const event = await seen.next(deadline - Date.now());
      deliveries.push(event.data.notificationReceived.notification.id);
    }
    expect(deliveries).toContain(id);
    await seen.quiet(3000);
    const all = [
      ...deliveries,
      ...seen.results.slice(deliveries.length).map((r) => r.data.notificationReceived.notification.id),
    ];
    expect(all.filter((n) => n === id)).toHaveLength(1);
    const row = (await db.query(`SELECT status, attempts FROM "Notification" WHERE id = $1`, [id])).rows[0];
    expect(row).toEqual({ status: 'SENT', attempts: 1 });
  });
});
