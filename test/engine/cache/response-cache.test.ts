// The response cache (src/engine/cache/response-cache.ts): a repeated read costs one statement, and no response
// outlives a committed write (ours, another connection's), the next kickoff, or the caller's right to it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../src/db/client.ts';
import { uncounted } from '../../../src/db/sql-stats.ts';
import { bearer, FULL_ENGINE, startTestServer, type TestServer } from '../../helpers/app.ts';
import { liveMetric } from '../../helpers/live.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: FULL_ENGINE });
});
afterAll(async () => {
  await s.close();
});

type Read = () => Promise<{ extensions?: { sqlStatements?: number } }>;

/** Reads once more and expects the response from the cache: one statement, the data version. */
async function cached(read: Read) {
  const r = await read();
  expect(r.extensions?.sqlStatements).toBe(1);
  return r as Awaited<ReturnType<Read>> & { data: any; headers: Headers };
}

/** Reads twice: the first computes and caches the response, the second is served from memory. */
async function twice(read: Read) {
  await read();
  return cached(read);
}

/** Runs `write` right after the next request has read the table versions on arrival (src/http/request-scope.ts). */
function writeAfterArrival(write: () => Promise<unknown>) {
  const db = s.t.db;
  const read = db.tableVersions;
  db.tableVersions = async (duringTransaction) => {
    db.tableVersions = read;
    const versions = await read(duringTransaction);
    // Not one of the request's statements: it runs in the request's async context, but stands for another client.
    await uncounted(write);
    return versions;
  };
}

const POST = (id: number) => `{ post(id: ${id}) { id text likesCount likedByMe comments { id text } } }`;

describe('response cache', () => {
  it('serves a repeated read from memory with one statement (the data version), the same response', async () => {
    const token = await s.loginAs('player');
    const id = s.demo.posts.demo[0];
    const first = await s.gql(POST(id), {}, bearer(token));
    expect(first.errors).toBeUndefined();
    expect(first.extensions!.sqlStatements).toBeGreaterThan(3);
    const second = await cached(() => s.gql(POST(id), {}, bearer(token)));
    expect(second.data).toEqual(first.data);
    expect(Number(second.headers.get('x-sql-statements'))).toBe(1);
  });

  it('is keyed by the caller: another user of the same company gets their own response', async () => {
    const [a, b] = [await s.loginAs('player'), await s.loginAs('player2')];
    const me = '{ me { email } }';
    expect((await twice(() => s.gql(me, {}, bearer(a)))).data.me.email).toBe('player1@demo.test');
    expect((await s.gql(me, {}, bearer(b))).data.me.email).toBe('player2@demo.test');
    // Tenants too: the same reseller, two managed companies named by x-app-company.
    const reseller = await s.loginAs('reseller');
    const name = '{ company { name } }';
    const demo = await s.gql(name, {}, { ...bearer(reseller), 'x-app-company': 'DEMO' });
    const globex = await s.gql(name, {}, { ...bearer(reseller), 'x-app-company': 'GLOBEX' });
    expect(demo.data.company.name).not.toBe(globex.data.company.name);
  });

  it('drops a cached response when a write commits: through the API, and from another connection', async () => {
    const token = await s.login('player3@demo.test', 'demo');
    const id = s.demo.posts.demo[0];
    const before = await twice(() => s.gql(POST(id), {}, bearer(token)));
    const liked = await s.gql(`mutation { likePost(postId: ${id}) { id } }`, {}, bearer(token));
    expect(liked.errors).toBeUndefined();
    const after = await s.gql(POST(id), {}, bearer(token));
    expect(after.data.post.likedByMe).toBe(true);
    expect(after.data.post.likesCount).toBe(before.data.post.likesCount + (before.data.post.likedByMe ? 0 : 1));

    // A second client of the same database (another gateway instance, the importer, psql).
    const other = await openDatabase(s.t.target);
    try {
      await cached(() => s.gql(POST(id), {}, bearer(token)));
      await other.prisma.post.update({ where: { id }, data: { text: 'edited elsewhere' } });
      const seen = await s.gql(POST(id), {}, bearer(token));
      expect(seen.data.post.text).toBe('edited elsewhere');
      expect(seen.extensions!.sqlStatements).toBeGreaterThan(1);
    } finally {
      await other.close();
    }
  });

  it("caches a response whose tables were written while it waited; not when the caller's rows were", async () => {
    const token = await s.login('player7@demo.test', 'demo');
    const author = s.demo.users['player7@demo.test'];
    const id = s.demo.posts.demo[1];
    const other = await openDatabase(s.t.target);
    try {
      // A comment from another connection commits after the request read the table versions on arrival, before it
      // executes (a busy server queues it meanwhile): the response shows the comment and is cached under the versions
      // it was computed at.
      writeAfterArrival(() =>
        other.prisma.postComment.create({ data: { postId: id, userId: author, text: 'meanwhile' } }),
      );
      const seen = await s.gql(POST(id), {}, bearer(token));
      expect(seen.data.post.comments.map((c: { text: string }) => c.text)).toContain('meanwhile');
      expect((await cached(() => s.gql(POST(id), {}, bearer(token)))).data).toEqual(seen.data);

      // Another request for the same response computed and cached it meanwhile: this one is served it from memory on
      // its second cache lookup, at the cost of the table versions read twice.
      writeAfterArrival(async () => {
        await other.prisma.postComment.create({ data: { postId: id, userId: author, text: 'kept by another' } });
        await s.gql(POST(id), {}, bearer(token));
      });
      const second = await s.gql(POST(id), {}, bearer(token));
      expect(second.extensions!.sqlStatements).toBe(2);
      expect(second.data.post.comments.map((c: { text: string }) => c.text)).toContain('kept by another');

      // The caller's own row changed in that window: it was authenticated under the first versions, so the response is
      // computed but not cached, and the next read executes again.
      const discards = await liveMetric(s.url, 'prode_response_cache_discards_total');
      writeAfterArrival(() => other.prisma.user.update({ where: { id: author }, data: { name: 'Renamed Meanwhile' } }));
      await other.prisma.postComment.create({ data: { postId: id, userId: author, text: 'and again' } });
      expect((await s.gql(POST(id), {}, bearer(token))).errors).toBeUndefined();
      // The response is checked after it was sent; the next read of it waits for that check.
      const again = await s.gql(POST(id), {}, bearer(token));
      expect(await liveMetric(s.url, 'prode_response_cache_discards_total')).toBe(discards + 1);
      expect(again.extensions!.sqlStatements).toBeGreaterThan(1);
      expect(again.data.post.comments.map((c: { text: string }) => c.text)).toContain('and again');
    } finally {
      await other.close();
    }
  });

  it('sends a miss before caching it; a read right behind it waits for the caching and is served it', async () => {
    const token = await s.login('player10@demo.test', 'demo');
    const me = '{ me { email name } }';
    const db = s.t.db;
    const read = db.tableVersions;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The check after a response was computed is the one read made during a transaction's window: held here.
    db.tableVersions = async (duringTransaction) => {
      if (duringTransaction) {
        db.tableVersions = read;
        await gate;
      }
      return read(duringTransaction);
    };
    try {
      // Before, the response left only after that check: this would wait for the gate forever.
      const first = await s.gql(me, {}, bearer(token));
      expect(first.data.me.email).toBe('player10@demo.test');
      expect(db.tableVersions).toBe(read);
      const second = s.gql(me, {}, bearer(token));
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      const served = await cached(() => second);
      expect(served.data).toEqual(first.data);
    } finally {
      release();
      db.tableVersions = read;
    }
  });

  it("sends a hit the bytes written when it was cached: the miss's, not the response written again", async () => {
    const token = await s.login('player12@demo.test', 'demo');
    const headers = { ...bearer(token), 'x-app-path': 'demo' };
    const get = async () => {
      const res = await fetch(`${s.url}/tournaments/me`, { headers });
      return { text: await res.text(), statements: Number(res.headers.get('x-sql-statements')) };
    };
    const miss = await get();
    expect(miss.statements).toBeGreaterThan(3);
    expect(JSON.parse(miss.text)[0].rounds.length).toBeGreaterThan(0);
    const me = '{ me { email company { name } } }';
    const gqlMiss = await s.gql(me, {}, headers);
    // A first hit of each waits for its response to be cached (cacheLater, after the miss was sent: on PostgreSQL the
    // caching, which writes the response's JSON, can still be running), so that only hits are watched below.
    expect((await get()).statements).toBe(1);
    await cached(() => s.gql(me, {}, headers));
    // Any write of a tournament list or of a `me` response during the hits below would be the response written again.
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const hit = await get();
      const gqlHit = await cached(() => s.gql(me, {}, headers));
      expect(hit.statements).toBe(1);
      expect(hit.text).toBe(miss.text);
      expect(gqlHit.data).toEqual(gqlMiss.data);
      const written = stringify.mock.calls.filter(([value]) => {
        const v = value as { me?: unknown; data?: { me?: unknown }; [0]?: { rounds?: unknown } } | null;
        if (typeof v !== 'object' || v === null) return false;
        return v[0]?.rounds !== undefined || v.me !== undefined || v.data?.me !== undefined;
      });
      expect(written).toEqual([]);
    } finally {
      stringify.mockRestore();
    }
  });

  it('skips the last cache lookup for a response that missed 3 times in a row, until it is served again', async () => {
    const token = await s.login('player11@demo.test', 'demo');
    const author = s.demo.users['player11@demo.test'];
    const id = s.demo.posts.demo[3];
    const db = s.t.db;
    const read = db.tableVersions;
    let lookups = 0; // reads of the versions before a response is sent: on arrival, and a miss's last cache lookup
    db.tableVersions = (duringTransaction) => {
      if (!duringTransaction) lookups++;
      return read(duringTransaction);
    };
    const other = await openDatabase(s.t.target);
    const lookupsOf = async () => {
      lookups = 0;
      const r = await s.gql(POST(id), {}, bearer(token));
      expect(r.errors).toBeUndefined();
      return lookups;
    };
    try {
      const missed = [];
      for (let i = 0; i < 4; i++) {
        // A comment from another client before each read: every response is out of date when it is asked for again.
        await other.prisma.postComment.create({ data: { postId: id, userId: author, text: `churn ${i}` } });
        missed.push(await lookupsOf());
      }
      expect(missed).toEqual([2, 2, 2, 1]);
      // Left alone, the response is cached and served; the next miss is a new cache lookup.
      expect(await lookupsOf()).toBe(1);
      await other.prisma.postComment.create({ data: { postId: id, userId: author, text: 'settled' } });
      expect(await lookupsOf()).toBe(2);
    } finally {
      db.tableVersions = read;
      await other.close();
    }
  });

  it('reads the table versions again once the query has its execution slot, not before it waited for one', async () => {
    const one = await startTestServer({ env: { ...FULL_ENGINE, GRAPHQL_MAX_CONCURRENT_EXECUTIONS: '1' } });
    try {
      const token = await one.loginAs('player');
      const id = one.demo.posts.demo[2];
      const db = one.t.db;
      const read = db.tableVersions;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      let calls = 0;
      // The second read is the first query's last cache lookup, inside the one slot: it holds the slot until released.
      db.tableVersions = async (duringTransaction) => {
        if (++calls === 2) {
          holding();
          await gate;
        }
        return read(duringTransaction);
      };
      const first = one.gql('{ me { id } }', {}, bearer(token));
      await held;
      const queued = one.gql(POST(id), {}, bearer(token));
      for (let i = 0; (await liveMetric(one.url, 'prode_graphql_executions_waiting')) < 1; i++) {
        // The cache lookup runs inside the slot: the first query holds one here, so the post's waits for it.
        expect(i, 'the post query should wait for the slot the first one holds').toBeLessThan(300);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Committed while the post's query waits for the slot: it is in the response, and the response is cached.
      await db.prisma.postComment.create({
        data: { postId: id, userId: one.demo.users['player1@demo.test'], text: 'while it queued' },
      });
      release();
      expect((await first).errors).toBeUndefined();
      const seen = await queued;
      db.tableVersions = read;
      expect(seen.data.post.comments.map((c: { text: string }) => c.text)).toContain('while it queued');
      const again = await one.gql(POST(id), {}, bearer(token));
      expect(again.extensions!.sqlStatements).toBe(1);
      expect(again.data).toEqual(seen.data);
    } finally {
      await one.close();
    }
  });

  it('does not cache a login row read while one of our transactions had it written, then rolled back', async () => {
    const token = await s.login('player8@demo.test', 'demo');
    const id = s.demo.users['player8@demo.test'];
    const me = '{ me { name } }';
    const { name } = (await s.gql(me, {}, bearer(token))).data.me;
    // A transaction of ours renames the caller after the request read the table versions, and rolls back once the
    // request has responded. On SQLite the request reads the uncommitted row (one connection).
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let rolledBack!: Promise<unknown>;
    writeAfterArrival(async () => {
      rolledBack = s.t.db.prisma
        .$transaction(async (tx) => {
          await tx.user.update({ where: { id }, data: { name: 'Never Committed' } });
          await released;
          throw new Error('rolled back on purpose');
        })
        .catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    // A committed write to users first, so that the caller's row is not already cached under the versions read.
    await s.t.db.prisma.user.update({
      where: { id: s.demo.users['player9@demo.test'] },
      data: { name: 'Player Nine' },
    });
    const during = (await s.gql(me, {}, bearer(token))).data.me.name;
    // Read uncommitted on SQLite's one connection; PostgreSQL's connections see committed rows only.
    expect(during).toBe(s.t.target.provider === 'sqlite' ? 'Never Committed' : name);
    release();
    await rolledBack;
    expect((await s.gql(me, {}, bearer(token))).data.me.name).toBe(name);
  });

  it('never serves a cached response to a caller who lost the right to it', async () => {
    const token = await s.login('player4@demo.test', 'demo');
    const me = '{ me { email } }';
    await twice(() => s.gql(me, {}, bearer(token)));
    await s.t.db.prisma.user.update({
      where: { id: s.demo.users['player4@demo.test'] },
      data: { deletedAt: new Date() },
    });
    const r = await s.gql(me, {}, bearer(token));
    expect(r.data).toBeNull();
    expect(r.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it("shows other users' predictions once the match kicks off, with no write in between", async () => {
    const prisma = s.t.db.prisma;
    const token = await s.login('player5@demo.test', 'demo');
    const viewer = await prisma.user.findFirstOrThrow({ where: { email: 'player5@demo.test' } });
    // A match everyone has predicted, moved to kick off in a moment.
    const match = await prisma.match.findFirstOrThrow({
      where: { predictions: { some: { userId: viewer.id } } },
      orderBy: { id: 'desc' },
    });
    const others = await prisma.prediction.count({
      where: { matchId: match.id, userId: { not: viewer.id }, user: { companyId: viewer.companyId } },
    });
    expect(others).toBeGreaterThan(0);
    const kickoff = new Date(Date.now() + 1500);
    await prisma.match.update({ where: { id: match.id }, data: { date: kickoff } });
    const q = `{ match(id: ${match.id}) { predictions { user { email } } } }`;
    const early = await s.gql(q, {}, bearer(token));
    expect(early.data.match.predictions).toHaveLength(1);
    expect((await cached(() => s.gql(q, {}, bearer(token)))).data.match.predictions).toHaveLength(1);
    await new Promise((r) => setTimeout(r, Math.max(0, kickoff.getTime() - Date.now()) + 50));
    const late = await s.gql(q, {}, bearer(token));
    expect(late.data.match.predictions).toHaveLength(others + 1);
  });

  it('reports its hits, misses and size on /metrics', async () => {
    const token = await s.login('player6@demo.test', 'demo');
    await twice(() => s.gql('{ me { email } }', {}, bearer(token)));
    const text = await (await fetch(`${s.url}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1]);
    expect(value('prode_response_cache_lookups_total\\{result="hit"\\}')).toBeGreaterThan(0);
    expect(value('prode_response_cache_lookups_total\\{result="miss"\\}')).toBeGreaterThan(0);
    expect(value('prode_response_cache_entries')).toBeGreaterThan(0);
    expect(value('prode_response_cache_bytes')).toBeGreaterThan(0);
  });

  it('counts the responses computed again after a write, by whether the write changed them', async () => {
    const token = await s.login('player8@demo.test', 'demo');
    const self = s.demo.users['player8@demo.test'];
    const someoneElse = s.demo.users['player9@demo.test'];
    const me = '{ me { id name } }';
    const counted = async () => ({
      same: await liveMetric(s.url, 'prode_response_cache_recomputed_total\\{answer="same"\\}'),
      changed: await liveMetric(s.url, 'prode_response_cache_recomputed_total\\{answer="changed"\\}'),
    });
    await twice(() => s.gql(me, {}, bearer(token)));
    const before = await counted();
    const other = await openDatabase(s.t.target);
    try {
      // Another user's row: the table's version moves, this response does not.
      await other.prisma.user.update({ where: { id: someoneElse }, data: { name: 'Someone Else' } });
      expect((await s.gql(me, {}, bearer(token))).extensions!.sqlStatements).toBeGreaterThan(1);
      await cached(() => s.gql(me, {}, bearer(token)));
      expect(await counted()).toEqual({ same: before.same + 1, changed: before.changed });
      // The caller's own row: the response changes.
      await other.prisma.user.update({ where: { id: self }, data: { name: 'Renamed Player Eight' } });
      expect((await s.gql(me, {}, bearer(token))).data.me.name).toBe('Renamed Player Eight');
      await cached(() => s.gql(me, {}, bearer(token)));
      expect(await counted()).toEqual({ same: before.same + 1, changed: before.changed + 1 });
    } finally {
      await other.close();
    }
  });

  it('stays off with RESPONSE_CACHE_MB=0', async () => {
    const off = await startTestServer({ env: { ...FULL_ENGINE, RESPONSE_CACHE_MB: '0' } });
    try {
      const token = await off.loginAs('player');
      await off.gql('{ me { email } }', {}, bearer(token));
      expect((await off.gql('{ me { email } }', {}, bearer(token))).extensions!.sqlStatements).toBeGreaterThan(1);
    } finally {
      await off.close();
    }
  });
});
