// SQLite runs out of space under a running server: a write returns 503 STORAGE_FULL (GraphQL and REST) with nothing
// of it kept, the failure is logged at error, and /readyz says 503 until a write succeeds again. The space runs out
// for real: the server's own connection is limited to the pages the file has (PRAGMA max_page_count), so SQLite
// returns "database or disk is full" (SQLITE_FULL) exactly as it does when the disk has no block left for it.
// On PostgreSQL, the server raises disk_full (53100) itself; the gateway must read it the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isStorageFull } from '../../src/db/errors.ts';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { emptyTarget, suiteProvider } from '../helpers/db.ts';

const POST = 'mutation($text: String!) { createPost(text: $text) { id } }';
// 2,000 three-byte characters: 6,000 bytes, more than a 4 KiB page holds, so the row needs pages of its own.
const LONG_TEXT = '€'.repeat(2000);

/** A server on an empty database of its own, its log lines kept; closed and dropped after the block. */
function onEmptyDatabase(provider: 'sqlite' | 'postgresql') {
  let s: TestServer | undefined;
  let drop: (() => Promise<void>) | undefined;
  const lines: Array<{ level: number; msg: string; [k: string]: unknown }> = [];
  beforeAll(async () => {
    const empty = await emptyTarget(provider);
    drop = empty.drop;
    s = await startTestServer({
      target: empty.target,
      env: { LOG_LEVEL: 'info' },
      logStream: { write: (line) => void lines.push(JSON.parse(line)) },
    });
  });
  afterAll(async () => {
    await s?.close();
    await drop?.();
  });
  return { server: () => s!, lines };
}

describe.runIf(suiteProvider === 'sqlite')('a full SQLite database', () => {
  const { server, lines } = onEmptyDatabase('sqlite');
  let s: TestServer;
  beforeAll(() => {
    s = server();
  });

  const readyz = async () => {
    const r = await fetch(`${s.url}/readyz`);
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  /** Readiness shares one probe per second: wait out the probe taken before the change. */
  const readyzBecomes = async (status: number) => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const r = await readyz();
      if (r.status === status || Date.now() > deadline) return r;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const sql = (text: string) => s.t.db.prisma.$queryRawUnsafe<Array<Record<string, bigint>>>(text);

  it('returns 503 STORAGE_FULL to writes, logs it at error and is not ready until a write succeeds again', async () => {
    const player = { ...bearer(await s.loginAs('player')), 'x-app-path': 'demo' };
    const admin = { ...bearer(await s.loginAs('admin')), 'x-app-path': 'demo' };
    expect((await readyz()).status).toBe(200);
    const posts = await s.t.db.prisma.post.count();

    // No free page left in the file (VACUUM), and no page more: the disk is full.
    await sql('VACUUM');
    const [{ page_count }] = await sql('PRAGMA page_count');
    await sql(`PRAGMA max_page_count = ${page_count}`);

    const gql = await s.gql(POST, { text: LONG_TEXT }, player);
    expect(gql.status).toBe(503);
    expect(gql.errors?.[0]).toMatchObject({
      message: 'the database has no space left for writes, so nothing was changed: try again later',
      extensions: { code: 'STORAGE_FULL' },
    });
    expect(gql.data).toBeNull();

    // Nothing half-written, and an error line.
    expect(await s.t.db.prisma.post.count()).toBe(posts);
    expect(lines.filter((l) => l.msg === 'storage full: a write failed for want of space')).toMatchObject([
      { level: 50 },
    ]);

    // Reads still succeed; readiness does not, naming the check that failed.
    expect((await s.gql('{ me { id } }', {}, player)).status).toBe(200);
    const full = await readyzBecomes(503);
    expect(full).toEqual({
      status: 503,
      body: {
        status: 'unavailable',
        database: 'sqlite',
        failing: ['storage'],
        message: 'the database has no space left for writes',
      },
    });
    // Still full a probe later: readiness tried a write, and it failed.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await readyz()).status).toBe(503);

    // REST: the invitations' page is filled to its last row (rows of 150 bytes, until one more needs a page), so an
    // invitation that grows needs a page too.
    const invitation = s.demo.invitations['new.hire1@demo.test'];
    const company = s.demo.companies.DEMO;
    await expect(
      (async () => {
        for (let i = 0; i < 1000; i++) {
          await s.t.db.prisma.invitation.create({
            data: { companyId: company, email: `filler${i}@demo.test`, externalId: 'F'.repeat(100) },
          });
        }
      })(),
    ).rejects.toThrow(/database or disk is full/);
    const patch = await fetch(`${s.url}/invitations/${invitation}`, {
      method: 'PATCH',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Émilie '.repeat(14).trim(), externalId: 'É'.repeat(200) }),
    });
    expect(patch.status).toBe(503);
    expect(await patch.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'STORAGE_FULL',
      message: 'the database has no space left for writes, so nothing was changed: try again later',
    });
    expect(await s.t.db.prisma.invitation.findUniqueOrThrow({ where: { id: invitation } })).toMatchObject({
      name: 'New Hire One',
      externalId: 'NH1',
    });
    const logged = lines.filter((l) => l.msg === 'storage full: a write failed for want of space');
    expect(logged).toHaveLength(2);
    expect(logged.every((l) => l.level === 50)).toBe(true);

    // Space is freed: readiness's probe write succeeds, and so do writes.
    await sql('PRAGMA max_page_count = 1073741823');
    expect(await readyzBecomes(200)).toEqual({ status: 200, body: { status: 'ready', database: 'sqlite' } });
    const again = await s.gql(POST, { text: LONG_TEXT }, player);
    expect(again.status).toBe(200);
    expect(again.data.createPost.id).toBeGreaterThan(0);
    expect(lines.some((l) => l.msg === 'readiness: the database has space for writes again')).toBe(true);
  });
});

// PostgreSQL's disk_full (SQLSTATE 53100), raised for real by the server and carried back through the same Prisma
// driver adapter the gateway uses: isStorageFull must see it in the shape that adapter gives it, and a write that
// meets it returns 503 STORAGE_FULL. (PostgreSQL watches its own disk, so readiness stays as it is.)
describe.runIf(suiteProvider === 'postgresql')('PostgreSQL out of disk (53100)', () => {
  const { server, lines } = onEmptyDatabase('postgresql');
  let s: TestServer;
  beforeAll(() => {
    s = server();
  });

  it('is STORAGE_FULL as the pg driver adapter reports it', async () => {
    const err: unknown = await s.t.db.prisma
      .$executeRawUnsafe(`DO $$ BEGIN RAISE EXCEPTION 'disk full' USING ERRCODE = '53100'; END $$`)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(Error);
    expect(isStorageFull(err)).toBe(true);
    expect(isDatabaseUnavailable(err)).toBe(false);
    // Another failure of the same statement is not.
    const other: unknown = await s.t.db.prisma
      .$executeRawUnsafe(`DO $$ BEGIN RAISE EXCEPTION 'other' USING ERRCODE = '22012'; END $$`)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(other).toBeInstanceOf(Error);
    expect(isStorageFull(other)).toBe(false);
  });

  it('returns 503 STORAGE_FULL to a GraphQL write that meets it, with nothing kept, logged at error', async () => {
    const player = { ...bearer(await s.loginAs('player')), 'x-app-path': 'demo' };
    // The disk is "full" for one post text only: the trigger raises what PostgreSQL raises when no block is left.
    await s.t.db.prisma.$executeRawUnsafe(`
      CREATE FUNCTION pretend_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.text = 'no space for this' THEN
          RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '53100';
        END IF;
        RETURN NEW;
      END $$`);
    await s.t.db.prisma.$executeRawUnsafe(
      `CREATE TRIGGER pretend_disk_full BEFORE INSERT ON "Post" FOR EACH ROW EXECUTE FUNCTION pretend_disk_full()`,
    );
    const posts = await s.t.db.prisma.post.count();

    const gql = await s.gql(POST, { text: 'no space for this' }, player);
    expect(gql.status).toBe(503);
    expect(gql.errors?.[0]).toMatchObject({
      message: 'the database has no space left for writes, so nothing was changed: try again later',
      extensions: { code: 'STORAGE_FULL' },
    });
    expect(await s.t.db.prisma.post.count()).toBe(posts);
    expect(lines.filter((l) => l.msg === 'storage full: a write failed for want of space')).toMatchObject([
      { level: 50 },
    ]);
    // Other writes go on.
    expect((await s.gql(POST, { text: 'there is space for this' }, player)).status).toBe(200);
  });
});
