// The response cache holds a response while the tables it read are unchanged (src/engine/cache/response-cache.ts). Two
// processes on one database: A caches, B does not (RESPONSE_CACHE_MB=0), so B's response is the truth. After each
// kind of write (through B's API, or straight to the database as the importer or psql would), every cacheable read
// in A must return exactly what B does: never stale. And responses that did not read what was written stay cached in A,
// which a global counter would not allow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../prisma/seed/demo-seed.ts';
import { FULL_ENGINE } from '../../helpers/app.ts';
import { suiteProvider } from '../../helpers/db.ts';
import { startReplicas, type Replicas } from '../../helpers/replicas.ts';

interface Result {
  statements: number;
  data: unknown;
  errors?: unknown;
}

type Who = 'player' | 'player2' | 'admin' | 'reseller';
const ACCOUNTS: Record<Who, { email: string; appPath: string }> = {
  player: { email: 'player1@demo.test', appPath: 'demo' },
  player2: { email: 'player2@demo.test', appPath: 'demo' },
  admin: { email: 'admin@demo.test', appPath: 'demo' },
  reseller: { email: 'reseller@partners.test', appPath: 'partners' },
};

describe('response cache across two processes', () => {
  let r: Replicas;
  const headers: Partial<Record<Who, Record<string, string>>> = {};

  beforeAll(async () => {
    r = await startReplicas(
      2,
      { SQL_STATS: 'true', LOG_LEVEL: 'error', ...FULL_ENGINE },
      (i) => (i === 1 ? { RESPONSE_CACHE_MB: '0' } : {}),
      suiteProvider,
    );
    for (const [who, { email, appPath }] of Object.entries(ACCOUNTS) as Array<[Who, (typeof ACCOUNTS)[Who]]>) {
      const res = await gql(
        0,
        'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }',
        {
          'x-app-path': appPath,
        },
        { e: email, p: DEMO_PASSWORD },
      );
      const token = (res.data as { login: { token: string } }).login.token;
      headers[who] = { authorization: `Bearer ${token}`, 'x-app-path': appPath };
    }
  }, 120_000);
  afterAll(() => r?.stop());

  async function gql(i: number, query: string, extra: Record<string, string>, variables = {}): Promise<Result> {
    const res = await fetch(`${r.urls[i]}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...extra },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data: unknown; errors?: unknown };
    return { statements: Number(res.headers.get('x-sql-statements')), ...body };
  }

  /** Every cacheable root field, with nesting that reaches the tables the writes below touch. */
  function reads(): Array<{ name: string; who: Who; query: string }> {
    const { tournament, matches, posts } = r.demo;
    return [
      { name: 'me', who: 'player', query: '{ me { id name email role areaLevel1 { id name } company { id name } } }' },
      { name: 'company', who: 'admin', query: '{ company { id name code disableNews areas { id name } } }' },
      {
        name: 'companiesSearch',
        who: 'reseller',
        query: '{ companiesSearch(take: 10) { id name tournaments { id name rounds { id name } } } }',
      },
      {
        name: 'myTournaments',
        who: 'player',
        query:
          '{ myTournaments { id name rounds { id name matches { id homeTeamGoals awayTeamGoals ' +
          'homeTeam { id name } predictions { id homeTeamGoals points user { id name } } } } } }',
      },
      { name: 'tournament', who: 'player', query: `{ tournament(id: ${tournament}) { id name rounds { id name } } }` },
      {
        name: 'match',
        who: 'player',
        query:
          `{ match(id: ${matches.opener}) { id homeTeamGoals awayTeamGoals homeTeam { id name } ` +
          'predictions { id points user { id name } } } }',
      },
      {
        name: 'ranking',
        who: 'player',
        query:
          `{ ranking(tournamentId: ${tournament}, take: 20) { total entries { position points user { id name } } ` +
          'me { position points } } }',
      },
      {
        name: 'post',
        who: 'player',
        query: `{ post(id: ${posts.demo[0]}) { id text likesCount likedByMe commentsCount user { id name } } }`,
      },
      { name: 'postComments', who: 'player', query: `{ postComments(postId: ${posts.demo[0]}) { id text } }` },
      { name: 'myNotifications', who: 'player', query: '{ myNotifications { id type readAt } }' },
      { name: 'myPredictions', who: 'player', query: '{ myPredictions { id homeTeamGoals awayTeamGoals points } }' },
      // Reads of the player's own predictions only: they depend on the player's bucket, not on everyone's writes.
      {
        name: 'own predictions by match',
        who: 'player',
        query:
          '{ myTournaments { id rounds { id matches { id predictions(onlyMine: true) { id homeTeamGoals ' +
          'awayTeamGoals points status } } } } }',
      },
      {
        name: 'own predictions by user',
        who: 'player',
        query: '{ me { id predictions { id homeTeamGoals points } } }',
      },
      { name: 'myInternalRankings', who: 'player', query: '{ myInternalRankings { id name members { id name } } }' },
      { name: 'myInternalRankingInvitations', who: 'player', query: '{ myInternalRankingInvitations { id } }' },
    ];
  }

  /**
   * Writes of every kind of dependency: B's API (cache off there) or the database directly. `staysCached`: reads that
   * must still be served from A's memory after it.
   */
  function writes(): Array<{ name: string; run: () => Promise<unknown>; staysCached?: string[] }> {
    const { demo } = r;
    const player = demo.users['player1@demo.test'];
    const api = async (who: Who, query: string) => {
      const a = await gql(1, query, headers[who]!);
      expect(a.errors, `${query}: ${JSON.stringify(a.errors)}`).toBeUndefined();
    };
    return [
      {
        name: 'a prediction (API)',
        run: () =>
          api(
            'player',
            `mutation { upsertPrediction(input: { matchId: ${demo.matches.final}, ` +
              'homeTeamGoals: 3, awayTeamGoals: 1 }) { id } }',
          ),
      },
      {
        name: "another player's prediction (API)",
        run: () =>
          api(
            'player2',
            `mutation { upsertPrediction(input: { matchId: ${demo.matches.final}, ` +
              'homeTeamGoals: 2, awayTeamGoals: 2 }) { id } }',
          ),
        staysCached: ['own predictions by match', 'own predictions by user'],
      },
      {
        name: "the player's predictions rescored (SQL)",
        run: () => r.db.prisma.prediction.updateMany({ where: { userId: player }, data: { points: 9 } }),
      },
      {
        name: 'a comment (API)',
        run: () => api('player', `mutation { createComment(postId: ${demo.posts.demo[0]}, text: "hi") { id } }`),
      },
      { name: 'a like (API)', run: () => api('player', `mutation { likePost(postId: ${demo.posts.demo[0]}) { id } }`) },
      {
        name: 'an internal ranking (API)',
        run: () =>
          api('player', `mutation { createInternalRanking(name: "Office", tournamentId: ${demo.tournament}) { id } }`),
      },
      {
        name: "the company's settings (API)",
        run: () =>
          api(
            'admin',
            `mutation { updateCompany(companyId: ${demo.companies.DEMO}, input: { disableNews: true }) { id } }`,
          ),
      },
      {
        name: 'a team renamed (SQL)',
        run: () =>
          r.db.prisma.team.updateMany({ data: { name: 'Renamed FC' }, where: { id: Object.values(demo.teams)[0] } }),
      },
      {
        name: 'a result corrected (SQL)',
        run: () => r.db.prisma.match.update({ where: { id: demo.matches.opener }, data: { homeTeamGoals: 7 } }),
      },
      {
        name: 'points and standings moved (SQL)',
        run: async () => {
          await r.db.prisma.prediction.updateMany({ where: { matchId: demo.matches.opener }, data: { points: 42 } });
          await r.db.prisma.tournamentStanding.updateMany({
            where: { userId: player },
            data: { points: { increment: 5 } },
          });
        },
      },
      {
        name: 'a user renamed (SQL)',
        run: () => r.db.prisma.user.update({ where: { id: player }, data: { name: 'Renamed Player' } }),
      },
      {
        name: 'an area renamed (SQL)',
        run: () =>
          r.db.prisma.area.update({ where: { id: Object.values(demo.areas)[0] }, data: { name: 'Renamed Area' } }),
      },
      {
        name: 'a notification (SQL)',
        run: () =>
          r.db.prisma.notification.create({
            data: {
              companyId: demo.companies.DEMO,
              userId: player,
              type: 'rankingsUpdated',
              payload: {},
              dedupeKey: 'cache-test',
            },
          }),
      },
      { name: 'a comment edited (SQL)', run: () => r.db.prisma.postComment.updateMany({ data: { text: 'edited' } }) },
    ];
  }

  it('after every kind of write, each cached read matches uncached B; unrelated ones stay cached', async () => {
    const list = reads();
    let hitsAfterUnrelatedWrites = 0;
    for (const write of writes()) {
      // Cache every read in A (the second read is served from memory: one statement).
      for (const read of list) {
        const first = await gql(0, read.query, headers[read.who]!);
        expect(first.errors, `${read.name}`).toBeUndefined();
        await gql(0, read.query, headers[read.who]!);
      }
      await write.run();
      for (const read of list) {
        const [cached, truth] = [
          await gql(0, read.query, headers[read.who]!),
          await gql(1, read.query, headers[read.who]!),
        ];
        expect(cached.data, `${read.name} after ${write.name}`).toEqual(truth.data);
        if (cached.statements === 1) hitsAfterUnrelatedWrites++;
        if (write.staysCached?.includes(read.name))
          expect(cached.statements, `${read.name} after ${write.name}`).toBe(1);
      }
    }
    // Per-table versions: most reads survive a write to a table they did not read (a global counter keeps none).
    expect(hitsAfterUnrelatedWrites).toBeGreaterThan(reads().length * 3);
  }, 180_000);
});
