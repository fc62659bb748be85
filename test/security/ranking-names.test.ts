// disableRankingsUserNames means it (docs/security.md, "Field-level rules"). The attack: with the setting on, a
// player summed `tournament { ... predictions { points user { name } } }` (everyone's predictions after kickoff)
// and rebuilt the named ranking that `ranking` hides. Now a player sees nobody else's user (not even the id, which
// posts pair with a name) beside points or predictions: over GraphQL (a match's predictions, a user's
// predictions), in matchUpdated events, and through the response cache; their own keep their name; admins, the
// reseller and managers still see who predicted; with the setting off everyone is named. Real HTTP, real JWTs, the
// demo data, either database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, FULL_ENGINE, startTestServer, type GqlResult, type TestServer } from '../helpers/app.ts';
import { activeSubscriptions, liveClient, untilSubscribed, type LiveClient } from '../helpers/live.ts';

let s: TestServer;
let t: Record<'player' | 'player3' | 'admin' | 'reseller' | 'manager', string>;
let ids: { demo: number; cup: number; player1: number; player3: number };
const clients: LiveClient[] = [];

beforeAll(async () => {
  // Full engine: one case proves the response cache never serves the named form for the hidden one.
  s = await startTestServer({ env: FULL_ENGINE });
  t = {
    ...(await s.loginAll(['player', 'admin', 'reseller', 'manager'])),
    player3: await s.login('player3@demo.test', 'demo'),
  };
  ids = {
    demo: s.demo.companies.DEMO,
    cup: s.demo.tournament,
    player1: s.demo.users['player1@demo.test'],
    player3: s.demo.users['player3@demo.test'],
  };
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await s?.close();
});

type Pred = { id: number; points: number | null; user: { id: number; name: string; email: string } | null };

/** The attack's query: every prediction of the tournament the caller may see, with points and who made it. */
const ATTACK = `query($t: Int!) { tournament(id: $t) { rounds { matches { id predictions { id points
  user { id name email profilePictureUrl } } } } } }`;
/** What names or identifies a Demo Corp person other than `own` (player N, the admin), as JSON carries it. */
const othersThan = (own: number) =>
  new RegExp(`Demo Player (?!${own}")\\d+|Dana Admin|player(?!${own}@)\\d+@demo\\.test|admin@demo\\.test`);

const demoHeaders = (token: string) => ({ ...bearer(token), 'x-app-path': 'demo' });

async function setNamesHidden(on: boolean) {
  const r = await s.gql(
    `mutation($c: Int!, $on: Boolean!) { updateCompany(companyId: $c, input: { disableRankingsUserNames: $on }) {
      disableRankingsUserNames } }`,
    { c: ids.demo, on },
    bearer(t.admin),
  );
  expect(r.errors).toBeUndefined();
  expect(r.data.updateCompany.disableRankingsUserNames).toBe(on);
}

function predictionsOf(r: GqlResult<any>): Pred[] {
  expect(r.errors).toBeUndefined();
  return r.data.tournament.rounds.flatMap((round: any) => round.matches.flatMap((m: any) => m.predictions));
}

/** A player's response with names hidden: others' predictions (with their points) and no one else's user. */
function expectHidden(r: GqlResult<any>, own: { id: number; n: number }) {
  const all = predictionsOf(r);
  const others = all.filter((p) => p.user === null);
  const mine = all.filter((p) => p.user !== null);
  // The attack still gets the predictions and their points, but nothing to sum them by.
  expect(others.length).toBeGreaterThan(100);
  expect(others.reduce((sum, p) => sum + (p.points ?? 0), 0)).toBeGreaterThan(0);
  expect(mine.length).toBeGreaterThan(0);
  for (const p of mine)
    expect(p.user).toMatchObject({ id: own.id, name: `Demo Player ${own.n}`, email: `player${own.n}@demo.test` });
  expect(JSON.stringify(r.data)).not.toMatch(othersThan(own.n));
}

/** Everyone's predictions under their users (the admin's and at least 15 players'). */
function expectNamed(r: GqlResult<any>) {
  const all = predictionsOf(r);
  expect(all.length).toBeGreaterThan(100);
  expect(all.filter((p) => p.user === null)).toEqual([]);
  const names = new Set(all.map((p) => p.user!.name));
  expect(names).toContain('Dana Admin');
  expect(names.size).toBeGreaterThan(15);
}

describe('disableRankingsUserNames: no one else beside points or predictions, to a player', () => {
  it("the attack: everyone's predictions after kickoff come with their points but no one else's user", async () => {
    await setNamesHidden(true);
    expectHidden(await s.gql(ATTACK, { t: ids.cup }, bearer(t.player)), { id: ids.player1, n: 1 });
    // The document's second run, by another player, goes through the shared-subtree executor.
    expectHidden(await s.gql(ATTACK, { t: ids.cup }, bearer(t.player3)), { id: ids.player3, n: 3 });
    // One match, and the matches list, the same.
    const match = await s.gql(
      'query($id: Int!) { match(id: $id) { predictions { points user { id name } } } }',
      { id: s.demo.matches.opener },
      bearer(t.player),
    );
    expect(match.errors).toBeUndefined();
    expect(match.data.match.predictions.length).toBeGreaterThan(10);
    expect(match.data.match.predictions.filter((p: Pred) => p.user !== null)).toEqual([
      { points: expect.any(Number), user: { id: ids.player1, name: 'Demo Player 1' } },
    ]);
    const list = await s.gql(
      `query($t: Int!) { matches(tournamentId: $t, from: "2000-01-01T00:00:00Z", take: 100) {
        predictions { points user { id name } } } }`,
      { t: ids.cup },
      bearer(t.player),
    );
    expect(list.errors).toBeUndefined();
    const listed: Pred[] = list.data.matches.flatMap((m: { predictions: Pred[] }) => m.predictions);
    expect(listed.filter((p) => p.user === null).length).toBeGreaterThan(100);
    expect(JSON.stringify(list.data)).not.toMatch(othersThan(1));
  });

  it("a user's predictions: [] for anyone but the caller (posts pair ids with names), their own listed", async () => {
    await setNamesHidden(true);
    const USER = 'id name predictions { id points }';
    const r = await s.gql(
      `query($id: Int!) { post(id: $id) { user { ${USER} } comments { user { ${USER} } } likes { user { ${USER} } } }
        me { ${USER} } }`,
      // The second post: by player 2, commented and liked by others, liked by player 1.
      { id: s.demo.posts.demo[1] },
      bearer(t.player),
    );
    expect(r.errors).toBeUndefined();
    const post = r.data.post;
    const users: Array<{ id: number; name: string; predictions: unknown[] }> = [
      post.user,
      ...post.comments.map((c: any) => c.user),
      ...post.likes.map((l: any) => l.user),
    ];
    // The wall still names them: that is why no prediction may carry their id.
    expect(users.filter((u) => u.id !== ids.player1).length).toBeGreaterThan(3);
    for (const u of users) {
      if (u.id === ids.player1) expect(u.predictions.length).toBeGreaterThan(0);
      else expect(u.predictions, u.name).toEqual([]);
    }
    expect(r.data.me.predictions.length).toBeGreaterThan(10);
  });

  it('admins, the reseller and managers still see who predicted', async () => {
    await setNamesHidden(true);
    expectNamed(await s.gql(ATTACK, { t: ids.cup }, bearer(t.admin)));
    expectNamed(await s.gql(ATTACK, { t: ids.cup }, demoHeaders(t.reseller)));
    expectNamed(await s.gql(ATTACK, { t: ids.cup }, demoHeaders(t.manager)));
    const post = await s.gql(
      'query($id: Int!) { post(id: $id) { user { id predictions { id } } } }',
      { id: s.demo.posts.demo[1] },
      bearer(t.admin),
    );
    expect(post.data.post.user.predictions.length).toBeGreaterThan(0);
  });

  it('setting off: a player sees every name; the response cache never serves one form for the other', async () => {
    const read = (token: string) => s.gql(ATTACK, { t: ids.cup }, bearer(token));
    await setNamesHidden(false);
    expectNamed(await read(t.player));
    const named = await read(t.player);
    expect(named.extensions?.sqlStatements).toBe(1); // a cache hit
    expectNamed(named);

    await setNamesHidden(true);
    const hidden = await read(t.player);
    expect(hidden.extensions?.sqlStatements).toBeGreaterThan(1);
    expectHidden(hidden, { id: ids.player1, n: 1 });
    const hiddenAgain = await read(t.player);
    expect(hiddenAgain.extensions?.sqlStatements).toBe(1);
    expectHidden(hiddenAgain, { id: ids.player1, n: 1 });
    // The same document, the same moment: the admin's response is named, the player's stays hidden.
    expectNamed(await read(t.admin));
    expectHidden(await read(t.player), { id: ids.player1, n: 1 });

    await setNamesHidden(false);
    expectNamed(await read(t.player));
  });

  it("REST: GET /tournaments/me and GET /companies/search show the caller's own predictions only", async () => {
    await setNamesHidden(true);
    for (const path of ['/tournaments/me', '/companies/search?search=demo']) {
      const res = await fetch(`${s.url}${path}`, { headers: demoHeaders(t.player) });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      // Every prediction (an object with points and a user) is the caller's, under their name; any user listed with
      // predictions is the caller.
      const predictionUsers: unknown[] = [];
      const usersWithPredictions: unknown[] = [];
      const walk = (v: unknown): void => {
        if (Array.isArray(v)) return v.forEach(walk);
        if (v === null || typeof v !== 'object') return;
        const o = v as Record<string, unknown>;
        if ('points' in o && 'user' in o) predictionUsers.push(o.user);
        if (Array.isArray(o.predictions) && o.predictions.length > 0 && 'email' in o) usersWithPredictions.push(o.id);
        Object.values(o).forEach(walk);
      };
      walk(JSON.parse(text));
      expect(predictionUsers.length, path).toBeGreaterThan(10);
      for (const u of predictionUsers)
        expect(u, path).toMatchObject({ id: ids.player1, name: 'Demo Player 1', email: 'player1@demo.test' });
      expect(usersWithPredictions.filter((id) => id !== ids.player1)).toEqual([]);
    }
    const mine = await fetch(`${s.url}/tournaments/me`, { headers: demoHeaders(t.player) });
    expect(await mine.text()).not.toMatch(othersThan(1));
  });

  it('matchUpdated: an event shows no other player to a player, everyone to an admin', async () => {
    await setNamesHidden(true);
    const WATCH = `subscription($t: Int!) { matchUpdated(tournamentId: $t) { match { id
      predictions { points user { id name } } } } }`;
    const connect = (token: string) => {
      const c = liveClient(s.url, { Authorization: `Bearer ${token}`, 'x-app-path': 'demo' });
      clients.push(c);
      return c.subscribe(WATCH, { t: ids.cup });
    };
    const before = await activeSubscriptions(s.url);
    const [player, admin] = [connect(t.player), connect(t.admin)];
    await untilSubscribed(s.url, before + 2);
    const matchId = s.demo.matches.final;
    await s.kickOff(matchId);
    const result = await s.gql(
      'mutation($i: SetMatchResultInput!) { setMatchResult(input: $i) { id } }',
      { i: { matchId, status: 'IN_PLAY', homeTeamGoals: 1, awayTeamGoals: 0, elapsedTime: 10 } },
      bearer(t.manager),
    );
    expect(result.errors).toBeUndefined();

    const seen = await player.next();
    expect(seen.errors).toBeUndefined();
    const shown: Pred[] = seen.data.matchUpdated.match.predictions;
    expect(shown.filter((p) => p.user === null).length).toBeGreaterThan(10);
    expect(shown.filter((p) => p.user !== null)).toEqual([
      { points: null, user: { id: ids.player1, name: 'Demo Player 1' } },
    ]);
    expect(JSON.stringify(seen.data)).not.toMatch(othersThan(1));

    const all = await admin.next();
    expect(all.errors).toBeUndefined();
    const named: Pred[] = all.data.matchUpdated.match.predictions;
    expect(named.length).toBe(shown.length);
    expect(named.filter((p) => p.user === null)).toEqual([]);
  });
});
