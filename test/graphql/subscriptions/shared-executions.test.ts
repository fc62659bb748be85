// Identical subscriptions of different callers share one execution per event when the document selects nothing of
// the caller's own and the callers see the same (src/app/scope.ts visibilityKey): 30 players of one company across
// five addresses cost one execution, a second company one more, and each company is sent its own view (its own
// prediction deadline). A player and an admin do not share, a document with the caller's own predictions never
// shares, and a revoked subscriber is answered alone. Over a real server and real graphql-ws sockets, on the suite's
// store; executions are the server's own count (prode_live_executions_total).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../../helpers/app.ts';
import { liveClient, liveMetric, untilSubscribed, type LiveClient, type Watch } from '../../helpers/live.ts';
import { forgeAccessToken } from '../../helpers/tokens.ts';

let s: TestServer;
const clients: LiveClient[] = [];
/** Who subscribes: a token, the company's tenant header, their user id and company. */
interface Caller {
  token: string;
  appPath?: string;
  userId: number;
  companyId: number;
}
let demoPlayers: Caller[];
let globexPlayers: Caller[];
let demoAdmin: Caller;
/** Each company's prediction deadline, set below: their views of a match differ by it. */
const DEADLINE = { demo: 0, globex: 45 };

const MATCH = `subscription($t: Int!) { matchUpdated(tournamentId: $t) { missedEvents
  match { id status homeTeamGoals awayTeamGoals predictionsCloseAt homeTeam { name } round { name } } } }`;
const OWN = `subscription($t: Int!) { matchUpdated(tournamentId: $t) { missedEvents
  match { id predictions(onlyMine: true) { homeTeamGoals awayTeamGoals user { id } } } } }`;
const RESULT = `mutation($i: SetMatchResultInput!) { setMatchResult(input: $i) { id } }`;

beforeAll(async () => {
  s = await startTestServer({ env: { TRUST_PROXY_HOPS: '1' } });
  const db = s.t.db.prisma;
  const { DEMO: demo, GLOBEX: globex } = s.demo.companies;
  // Ten more players of Demo Corp, so that 30 of one company subscribe.
  const model = await db.user.findUniqueOrThrow({ where: { id: s.demo.users['player1@demo.test'] } });
  const { id: _id, email: _email, ...rest } = model;
  for (let i = 21; i <= 30; i++) await db.user.create({ data: { ...rest, email: `player${i}@demo.test` } as never });
  for (const [companyId, minutes] of [
    [demo, DEADLINE.demo],
    [globex, DEADLINE.globex],
  ]) {
    const row = await db.company.findUniqueOrThrow({ where: { id: companyId } });
    const settings = { ...((row.scoringSettings as object | null) ?? {}), predictionDeadlineMinutes: minutes };
    await db.company.update({ where: { id: companyId }, data: { scoringSettings: settings } });
  }
  const callers = async (companyId: number, role: string, appPath?: string) => {
    const users = await db.user.findMany({ where: { companyId, role: role as never }, orderBy: { id: 'asc' } });
    return Promise.all(
      users.map(async (u) => ({
        token: await forgeAccessToken({ userId: u.id, companyId, role, tokenVersion: u.tokenVersion }),
        appPath,
        userId: u.id,
        companyId,
      })),
    );
  };
  demoPlayers = await callers(demo, 'player', 'demo');
  globexPlayers = await callers(globex, 'player');
  [demoAdmin] = await callers(demo, 'admin', 'demo');
  expect(demoPlayers).toHaveLength(30);
  expect(globexPlayers).toHaveLength(10);
  await s.kickOff(s.demo.matches.final);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  while ((await liveMetric(s.url, 'prode_live_subscriptions')) > 0) await new Promise((r) => setTimeout(r, 20));
});
afterAll(async () => {
  await s.close();
});

/** `caller` subscribes to `query` on a socket of their own, from `address`. */
function subscribe(caller: Caller, query: string, address: string): Watch {
  const params: Record<string, string> = { Authorization: `Bearer ${caller.token}` };
  if (caller.appPath) params['x-app-path'] = caller.appPath;
  const client = liveClient(s.url, params, { address });
  clients.push(client);
  return client.subscribe(query, { t: s.demo.tournament });
}

/**
 * A new score of the final; the executions the subscribers' responses to it took, the scopes made for them (loaders,
 * object budget, clock: made only for an execution that runs), and the responses.
 */
async function result(watches: Watch[], goals: number) {
  const before = await liveMetric(s.url, 'prode_live_executions_total');
  const scopesBefore = await liveMetric(s.url, 'prode_live_event_scopes_total');
  const manager = await s.loginAs('manager');
  const i = { matchId: s.demo.matches.final, status: 'IN_PLAY', homeTeamGoals: goals, awayTeamGoals: 0 };
  const r = await s.gql(RESULT, { i }, bearer(manager));
  expect(r.errors).toBeUndefined();
  const events = await Promise.all(watches.map((w) => w.next(15_000)));
  return {
    executions: (await liveMetric(s.url, 'prode_live_executions_total')) - before,
    scopes: (await liveMetric(s.url, 'prode_live_event_scopes_total')) - scopesBefore,
    events,
  };
}

/** The final as a company of `deadline` minutes sees it, computed from its row here. */
async function expectedMatch(goals: number, deadline: number) {
  const match = await s.t.db.prisma.match.findUniqueOrThrow({
    where: { id: s.demo.matches.final },
    include: { homeTeam: true, round: true },
  });
  return {
    id: match.id,
    status: 'IN_PLAY',
    homeTeamGoals: goals,
    awayTeamGoals: 0,
    predictionsCloseAt: new Date(match.date.getTime() - deadline * 60_000).toISOString(),
    homeTeam: { name: match.homeTeam.name },
    round: { name: match.round.name },
  };
}

const address = (i: number) => `198.51.100.${(i % 5) + 1}`;

describe('identical documents of callers who see the same', () => {
  it('30 players of one company across 5 addresses cost 1 execution per event, 2 companies cost 2', async () => {
    const demoWatches = demoPlayers.map((p, i) => subscribe(p, MATCH, address(i)));
    await untilSubscribed(s.url, demoWatches.length, 20_000);
    const one = await result(demoWatches, 1);
    const demoView = await expectedMatch(1, DEADLINE.demo);
    for (const e of one.events) expect(e).toEqual({ data: { matchUpdated: { missedEvents: false, match: demoView } } });
    // Before, each subscriber's document was executed for them: 30 executions.
    expect(one.executions).toBe(1);
    // A subscriber sent a copy makes no scope for the event: before, each of the 30 made its own.
    expect(one.scopes).toBe(1);

    const globexWatches = globexPlayers.map((p, i) => subscribe(p, MATCH, address(i + 2)));
    await untilSubscribed(s.url, demoWatches.length + globexWatches.length, 20_000);
    const two = await result([...demoWatches, ...globexWatches], 2);
    const views = { demo: await expectedMatch(2, DEADLINE.demo), globex: await expectedMatch(2, DEADLINE.globex) };
    expect(views.demo.predictionsCloseAt).not.toBe(views.globex.predictionsCloseAt);
    // Each company is sent its own view: Globex's players never Demo Corp's, from whichever address.
    for (const [i, e] of two.events.entries()) {
      const view = i < demoWatches.length ? views.demo : views.globex;
      expect(e).toEqual({ data: { matchUpdated: { missedEvents: false, match: view } } });
    }
    expect(two.executions).toBe(2);
    expect(two.scopes).toBe(2);
  }, 60_000);

  it('a player and an admin of one company do not share: their rights differ', async () => {
    const watches = [subscribe(demoPlayers[0], MATCH, address(0)), subscribe(demoAdmin, MATCH, address(0))];
    await untilSubscribed(s.url, watches.length);
    const { executions, events } = await result(watches, 3);
    const view = await expectedMatch(3, DEADLINE.demo);
    for (const e of events) expect(e).toEqual({ data: { matchUpdated: { missedEvents: false, match: view } } });
    expect(executions).toBe(2);
  });

  it('a document with the caller’s own predictions is executed for each caller, each sent their own', async () => {
    const players = demoPlayers.slice(0, 5);
    const watches = players.map((p) => subscribe(p, OWN, address(0)));
    await untilSubscribed(s.url, watches.length);
    const { executions, scopes, events } = await result(watches, 4);
    expect(executions).toBe(players.length);
    expect(scopes).toBe(players.length);
    for (const [i, e] of events.entries()) {
      const own = await s.t.db.prisma.prediction.findMany({
        where: { userId: players[i].userId, matchId: s.demo.matches.final },
      });
      const predictions = own.map((p) => ({
        homeTeamGoals: p.homeTeamGoals,
        awayTeamGoals: p.awayTeamGoals,
        user: { id: players[i].userId },
      }));
      expect(e.errors).toBeUndefined();
      expect(e.data.matchUpdated.match).toEqual({ id: s.demo.matches.final, predictions });
    }
  });

  it('a revoked subscriber is answered alone, before any shared result', async () => {
    const [revoked, ...others] = demoPlayers.slice(0, 4);
    const watches = [revoked, ...others].map((p, i) => subscribe(p, MATCH, address(i)));
    await untilSubscribed(s.url, watches.length);
    const out = await s.gql('mutation { logoutEverywhere }', {}, { ...bearer(revoked.token), 'x-app-path': 'demo' });
    expect(out.errors).toBeUndefined();
    const last = await watches[0].next(10_000);
    expect(last.errors?.[0].extensions?.code, JSON.stringify(last)).toBe('UNAUTHENTICATED');
    expect(await watches[0].ended).toEqual({});
    const { executions, events } = await result(watches.slice(1), 5);
    const view = await expectedMatch(5, DEADLINE.demo);
    for (const e of events) expect(e).toEqual({ data: { matchUpdated: { missedEvents: false, match: view } } });
    expect(executions).toBe(1);
    expect(watches[0].results).toHaveLength(1);
  });
});

describe('copies of a shared execution', () => {
  let small: TestServer;
  beforeAll(async () => {
    // One address may be sent about two copies of the small document per event.
    small = await startTestServer({ env: { TRUST_PROXY_HOPS: '1', LIVE_MAX_OBJECTS_PER_ADDRESS: '10' } });
    await small.kickOff(small.demo.matches.final);
  });
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
    await small.close();
  });

  it('count against each receiver’s own address: past it a copy is refused there, not elsewhere', async () => {
    const DOC = `subscription($t: Int!) { matchUpdated(tournamentId: $t) { missedEvents match { id homeTeamGoals } } }`;
    const watch = async (email: string, address: string) => {
      const token = await small.login(email, 'demo');
      const client = liveClient(small.url, { Authorization: `Bearer ${token}`, 'x-app-path': 'demo' }, { address });
      clients.push(client);
      return client.subscribe(DOC, { t: small.demo.tournament });
    };
    // The first subscriber (who executes) at an address of their own, then six at one crowded address.
    const alone = await watch('player1@demo.test', '198.51.100.20');
    await untilSubscribed(small.url, 1);
    const crowded = [];
    for (let i = 2; i <= 7; i++) crowded.push(await watch(`player${i}@demo.test`, '198.51.100.21'));
    await untilSubscribed(small.url, 7);
    const before = await liveMetric(small.url, 'prode_live_executions_total');
    const manager = await small.loginAs('manager');
    const i = { matchId: small.demo.matches.final, status: 'IN_PLAY', homeTeamGoals: 6, awayTeamGoals: 0 };
    expect((await small.gql(RESULT, { i }, bearer(manager))).errors).toBeUndefined();
    const first = await alone.next(15_000);
    const rest = await Promise.all(crowded.map((w) => w.next(15_000)));
    const served = { missedEvents: false, match: { id: small.demo.matches.final, homeTeamGoals: 6 } };
    expect(first).toEqual({ data: { matchUpdated: served } });
    const refused = rest.filter((e) => e.errors);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThan(rest.length);
    for (const e of refused)
      expect(e.errors?.[0].extensions).toMatchObject({ code: 'RESPONSE_TOO_LARGE', limit: 'address' });
    for (const e of rest.filter((r) => !r.errors)) expect(e).toEqual({ data: { matchUpdated: served } });
    // One execution, counted once in the process's budget and given back.
    expect((await liveMetric(small.url, 'prode_live_executions_total')) - before).toBe(1);
    expect(await liveMetric(small.url, 'prode_live_objects_in_flight')).toBe(0);
  }, 60_000);
});
