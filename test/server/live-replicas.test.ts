// Two gateway processes on one PostgreSQL, as a company that outgrew one machine runs them: what is written
// through one replica reaches the other replica's subscribers within a second, only those it concerns, and a
// notification both replicas could deliver reaches its user once.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, TEST_JWT_SECRET } from '../helpers/app.ts';
import { suiteProvider } from '../helpers/db.ts';
import { startReplicas, type Replicas } from '../helpers/replicas.ts';
import { activeSubscriptions, liveClient, untilSubscribed, type LiveClient } from '../helpers/live.ts';
import { ROOT, runScript } from '../helpers/process.ts';

describe.runIf(suiteProvider === 'postgresql')('two replicas on one PostgreSQL', () => {
  let replicas: Replicas;
  let a: { url: string };
  let b: { url: string };
  const clients: LiveClient[] = [];

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
    // Both replicas tick every second: delivery must still happen once.
    replicas = await startReplicas(2, { NOTIFICATIONS_INTERVAL_SECONDS: '1' });
    [a, b] = replicas.urls.map((url) => ({ url }));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await replicas?.stop();
  });

  it('a result set through B reaches a matchUpdated subscriber on A within a second', async () => {
    const player = await login(a.url, 'player1@demo.test', 'demo');
    const manager = await login(b.url, 'manager@partners.test', 'partners');
    const seen = watch(
      a.url,
      player,
      `subscription($t: Int!) { matchUpdated(tournamentId: $t) { match { id status homeTeamGoals awayTeamGoals } } }`,
      { t: replicas.demo.tournament },
      'demo',
    );
    await untilSubscribed(a.url, 1);
    const matchId = replicas.demo.matches.final;
    await replicas.db.prisma.match.update({ where: { id: matchId }, data: { date: new Date(Date.now() - 60_000) } });
    const r = await gql(
      b.url,
      manager,
      `mutation($i: SetMatchResultInput!) { setMatchResult(input: $i) { id } }`,
      { i: { matchId, status: 'IN_PLAY', homeTeamGoals: 1, awayTeamGoals: 0 } },
      'partners',
    );
    expect(r.errors).toBeUndefined();
    // Within a second of the write's response (it has committed): how long B took to write it, on a busy machine over
    // a second at times, is not the delivery's.
    const event = await seen.next(1000);
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
    const tournamentId = replicas.demo.tournament;
    const demo = watch(a.url, demoPlayer, RANKING, { t: tournamentId }, 'demo');
    const globex = watch(a.url, globexPlayer, RANKING, { t: tournamentId });
    await untilSubscribed(a.url, 3);
    const company = replicas.demo.companies.DEMO;
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
      const env = { DATABASE_URL: replicas.databaseUrl, JWT_SECRET: TEST_JWT_SECRET };
      const run = runScript('scripts/import-openfootball.ts', env, [file, '--company', 'DEMO']);
      expect(await run.exited, run.output()).toBe(0);
    };
    await importer(write('fixtures.json', false));
    const { id: cup } = await replicas.db.prisma.tournament.findFirstOrThrow({ where: { name: 'Live Cup' } });
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
    const { id } = await replicas.db.prisma.notification.create({
      data: {
        companyId: replicas.demo.companies.DEMO,
        userId: replicas.demo.users['player2@demo.test'],
        type: 'rankingsUpdated',
        payload: {},
        dedupeKey: 'live-replicas-test',
      },
    });
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
    const row = await replicas.db.prisma.notification.findUniqueOrThrow({ where: { id } });
    expect({ status: row.status, attempts: row.attempts }).toEqual({ status: 'SENT', attempts: 1 });
  });
});
