// Loader results shared between the response cache's misses (src/engine/cache/shared-reads.ts): a miss after a write
// reads again only the tables written since, takes nothing read at other table versions, and never returns stale data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableVersions } from '../../../src/engine/cache/table-versions.ts';
import { openDatabase } from '../../../src/db/client.ts';
import { runWithSqlStats, type SqlStats } from '../../../src/db/sql-stats.ts';
import { RequestReads, SharedReads } from '../../../src/engine/cache/shared-reads.ts';
import { bearer, FULL_ENGINE, startTestServer, type TestServer } from '../../helpers/app.ts';
import { liveMetric } from '../../helpers/live.ts';

const versions = (byTable: Record<string, number>, rollbacks = 0) =>
  new TableVersions('test', new Map(Object.entries(byTable).map(([t, v]) => [t, String(v)])), rollbacks);

describe('shared reads', () => {
  it('offers what a request read only once its response is cached, and only at the versions it was read at', () => {
    const shared = new SharedReads(100);
    const first = new RequestReads(shared, versions({ User: 1, Post: 1 }));
    const row = { id: 7, name: 'Ana' };
    first.readFrom(['User'], 'user#id:7', row);
    expect(new RequestReads(shared, versions({ User: 1, Post: 1 })).take(['User'], 'user#id:7')).toBeUndefined();
    first.share();

    // A write to another table leaves it; one to its own table, or a rollback, does not.
    expect(new RequestReads(shared, versions({ User: 1, Post: 2 })).take(['User'], 'user#id:7')).toEqual({
      value: row,
    });
    expect(new RequestReads(shared, versions({ User: 2, Post: 1 })).take(['User'], 'user#id:7')).toBeUndefined();
    expect(new RequestReads(shared, versions({ User: 1, Post: 1 }, 1)).take(['User'], 'user#id:7')).toBeUndefined();
    expect(new RequestReads(shared, versions({ User: 1 })).take(['User'], 'user#id:8')).toBeUndefined();
  });

  it('counts the table of what a request takes among the tables its response read', () => {
    const shared = new SharedReads(100);
    const at = versions({ Area: 3 });
    const reader = new RequestReads(shared, at);
    reader.readFrom(['Area'], 'areasByCompany:1', [{ id: 1 }]);
    reader.share();
    const stats: SqlStats = { statements: 0, tables: new Set() };
    runWithSqlStats(stats, () => new RequestReads(shared, at).take(['Area'], 'areasByCompany:1'));
    expect([...stats.tables!]).toEqual(['Area']);
    expect(stats.statements).toBe(0);
  });

  it('shares a result read from two tables at both versions: a write to either leaves it behind', () => {
    const shared = new SharedReads(100);
    const reader = new RequestReads(shared, versions({ Tournament: 1, CompanyTournament: 1 }));
    reader.readFrom(['Tournament', 'CompanyTournament'], 'tournamentsByCompany:1', [{ id: 1 }]);
    reader.share();
    const take = (byTable: Record<string, number>) =>
      new RequestReads(shared, versions(byTable)).take(['Tournament', 'CompanyTournament'], 'tournamentsByCompany:1');
    expect(take({ Tournament: 1, CompanyTournament: 2 })).toBeUndefined();
    expect(take({ Tournament: 2, CompanyTournament: 1 })).toBeUndefined();
    const stats: SqlStats = { statements: 0, tables: new Set() };
    expect(runWithSqlStats(stats, () => take({ Tournament: 1, CompanyTournament: 1, Team: 5 }))).toBeDefined();
    expect([...stats.tables!].sort()).toEqual(['CompanyTournament', 'Tournament']);
  });

  it('hands out frozen rows: no request can change what the next one takes', () => {
    const shared = new SharedReads(100);
    const at = versions({ Area: 1 });
    const reader = new RequestReads(shared, at);
    reader.readFrom(['Area'], 'areasByCompany:1', [{ id: 1, name: 'North' }]);
    reader.share();
    const taken = new RequestReads(shared, at).take(['Area'], 'areasByCompany:1')!.value as Array<{ name: string }>;
    expect(() => (taken[0].name = 'changed')).toThrow(TypeError);
    expect(() => taken.push({ name: 'x' })).toThrow(TypeError);
  });

  it('is bounded in rows, least recently taken out first; a long list is not shared', () => {
    const shared = new SharedReads(3);
    const at = versions({ User: 1 });
    const reader = new RequestReads(shared, at);
    for (const id of [1, 2, 3]) reader.readFrom(['User'], `user#id:${id}`, { id });
    reader.readFrom(
      ['User'],
      'adminsByCompany:1',
      Array.from({ length: 1001 }, (_, id) => ({ id })),
    );
    reader.share();
    const take = (key: string) => new RequestReads(shared, at).take(['User'], key);
    expect(take('adminsByCompany:1')).toBeUndefined();
    expect(take('user#id:1')).toBeDefined(); // now the most recent
    const more = new RequestReads(shared, at);
    more.readFrom(['User'], 'user#id:4', { id: 4 });
    more.share();
    expect(shared.size).toEqual({ entries: 3, rows: 3 });
    expect(take('user#id:2')).toBeUndefined();
    expect(take('user#id:1')).toBeDefined();
  });
});

describe('shared reads in the response cache', () => {
  let s: TestServer;
  /** A second gateway on the same database with nothing cached or shared: what each request should return. */
  let cold: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: FULL_ENGINE });
    cold = await startTestServer({ target: s.t.target, seed: false, env: { ...FULL_ENGINE, RESPONSE_CACHE_MB: '0' } });
  });
  afterAll(async () => {
    await cold?.app.close();
    await s.close();
  });

  const get = async (server: TestServer, path: string, token: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: bearer(token) });
    expect(res.status).toBe(200);
    return { body: (await res.json()) as any, statements: Number(res.headers.get('x-sql-statements')) };
  };
  const rest = (path: string, token: string) => get(s, path, token);
  const uncached = async (path: string, token: string) => (await get(cold, path, token)).body;

  it("after a comment, a player's post executes again reading only the comments, and matches uncached", async () => {
    const [reader, writer] = [await s.loginAs('player'), await s.loginAs('player2')];
    const id = s.demo.posts.demo[0];
    const path = `/posts/${id}`;
    const cold = await rest(path, reader);
    expect((await rest(path, reader)).statements).toBe(1); // cached: so were its loaders' reads

    const made = await s.gql(
      `mutation { createComment(postId: ${id}, text: "kick-off soon") { id } }`,
      {},
      bearer(writer),
    );
    expect(made.errors).toBeUndefined();
    const warm = await rest(path, reader);
    expect(warm.body.comments.map((c: { text: string }) => c.text)).toContain('kick-off soon');
    expect(warm.body).toEqual(await uncached(path, reader));
    // The authors, their company, areas and extra fields, the likes and the post were not read again.
    expect(warm.statements).toBeLessThan(cold.statements / 2);

    // Another player's first read takes the rows the first one's reads left.
    const other = await s.login('player3@demo.test', 'demo');
    const theirs = await rest(path, other);
    expect(theirs.body).toEqual(await uncached(path, other));
    // Besides what the first player's miss read: whether they liked the post and its comments, and (a first request)
    // their own login rows.
    expect(theirs.statements).toBeLessThanOrEqual(warm.statements + 2);
    expect(await liveMetric(s.url, 'prode_response_cache_shared_reads_total')).toBeGreaterThan(0);
    expect(await liveMetric(s.url, 'prode_response_cache_shared_rows')).toBeGreaterThan(0);
  });

  it("after the player's own prediction, their tournaments execute again reading only what it changed", async () => {
    const token = await s.loginAs('player2');
    const cold = await rest('/tournaments/me', token);
    expect((await rest('/tournaments/me', token)).statements).toBe(1);
    const predicted = await s.gql(
      `mutation { upsertPrediction(input: { matchId: ${s.demo.matches.final}, homeTeamGoals: 3, awayTeamGoals: 1 }) ` +
        `{ id } }`,
      {},
      bearer(token),
    );
    expect(predicted.errors).toBeUndefined();
    const warm = await rest('/tournaments/me', token);
    expect(warm.body).toEqual(await uncached('/tournaments/me', token));
    // The tournaments, rounds, matches, teams and countries were not read again.
    expect(warm.statements).toBeLessThan(cold.statements / 2);
  });

  it('never returns a row written since it was read, by this gateway or another client', async () => {
    const token = await s.loginAs('player');
    const id = s.demo.posts.demo[0];
    const path = `/posts/${id}/comments`;
    await rest(path, token);
    const before = await rest(path, token);
    expect(before.statements).toBe(1);
    const author = before.body[0].user.id as number;

    // Another instance, psql, the importer: the write reaches this gateway only through the table versions.
    const other = await openDatabase(s.t.target);
    try {
      await other.prisma.user.update({ where: { id: author }, data: { name: 'Renamed Elsewhere' } });
    } finally {
      await other.close();
    }
    // First another player, whose response was never cached: the rows read before the write are still there.
    const third = await s.login('player3@demo.test', 'demo');
    const theirs = await rest(path, third);
    expect(theirs.body[0].user.name).toBe('Renamed Elsewhere');
    expect(theirs.body).toEqual(await uncached(path, third));
    const after = await rest(path, token);
    expect(after.body[0].user.name).toBe('Renamed Elsewhere');
    expect(after.body).toEqual(await uncached(path, token));
  });
});
