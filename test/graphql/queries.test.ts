// Each query over HTTP on the demo data, with the tenant and privacy rules that shape its response.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { forgeInvitationLink } from '../helpers/tokens.ts';

let s: TestServer;
let player: string;
let reseller: string;
let globex: string;
let ids: {
  demoPost: number;
  globexPost: number;
  pastMatch: number;
  futureMatch: number;
  tournament: number;
  player1: number;
};

beforeAll(async () => {
  s = await startTestServer();
  const p = s.t.db.prisma;
  player = await s.loginAs('player');
  reseller = await s.loginAs('reseller');
  globex = await s.loginAs('globexPlayer');
  const now = new Date();
  ids = {
    demoPost: s.demo.posts.demo[0],
    globexPost: s.demo.posts.globex,
    pastMatch: (await p.match.findFirstOrThrow({ where: { date: { lt: now } }, orderBy: { id: 'asc' } })).id,
    futureMatch: (await p.match.findFirstOrThrow({ where: { date: { gt: now } }, orderBy: { id: 'asc' } })).id,
    tournament: s.demo.tournament,
    player1: s.demo.users['player1@demo.test'],
  };
});
afterAll(() => s.close());

const code = (r: { errors?: Array<{ extensions: { code: string } }> }) => r.errors?.[0]?.extensions.code;

describe('post and postComments', () => {
  const POST = `query($id: Int!) { post(id: $id) { id text createdAt user { email recoverPasswordToken company { name
    skipLoginToken } }
    company { name featureSettings { community { enabled postAuthorMinRole } } }
    displayAuthor { name type } comments { id text user { name } post { id } likes { id user { id } } likesCount
      likedByMe }
    commentsCount likes { id post { id } user { id } } likesCount likedByMe } }`;

  it('returns a post of the tenant with counts, likes and secrets nulled', async () => {
    const r = await s.gql(POST, { id: ids.demoPost }, bearer(player));
    expect(r.errors).toBeUndefined();
    const post = r.data.post;
    expect(post.id).toBe(ids.demoPost);
    expect(post.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(post.company.name).toBe('Demo Corp');
    expect(post.user.recoverPasswordToken).toBeNull();
    expect(post.user.company.skipLoginToken).toBeNull();
    expect(post.commentsCount).toBe(post.comments.length);
    expect(post.likesCount).toBe(post.likes.length);
    expect(post.likedByMe).toBe(post.likes.some((l: { user: { id: number } }) => l.user.id === ids.player1));
    expect(post.comments[0].post.id).toBe(ids.demoPost);
    expect(post.displayAuthor).toEqual({
      name: post.user.company ? expect.any(String) : '',
      type: expect.stringMatching(/^(user|company)$/),
    });
  });

  it("another tenant's post is not found, exactly like a missing one", async () => {
    const other = await s.gql(POST, { id: ids.globexPost }, bearer(player));
    const missing = await s.gql(POST, { id: 999999 }, bearer(player));
    expect(code(other)).toBe('NOT_FOUND');
    expect(code(missing)).toBe('NOT_FOUND');
    expect(other.errors![0].message.replace(String(ids.globexPost), 'N')).toBe(
      missing.errors![0].message.replace('999999', 'N'),
    );
  });

  it('a reseller reads a managed company post through x-app-company', async () => {
    const r = await s.gql(
      'query($id: Int!) { post(id: $id) { id } }',
      { id: ids.globexPost },
      { ...bearer(reseller), 'x-app-company': 'GLOBEX' },
    );
    expect(r.data.post.id).toBe(ids.globexPost);
  });

  it('postComments lists the comments oldest first', async () => {
    const r = await s.gql(
      'query($id: Int!) { postComments(postId: $id) { id createdAt likesCount likedByMe user { email } post { id } } }',
      { id: ids.demoPost },
      bearer(player),
    );
    expect(r.data.postComments.length).toBe(3);
    const times = r.data.postComments.map((c: { createdAt: string }) => c.createdAt);
    expect([...times].sort()).toEqual(times);
    expect(
      code(
        await s.gql('query($id: Int!) { postComments(postId: $id) { id } }', { id: ids.globexPost }, bearer(player)),
      ),
    ).toBe('NOT_FOUND');
  });
});

describe('invitationByJwt (public)', () => {
  const Q =
    'query($jwt: String!) { invitationByJwt(jwt: $jwt) { id email role externalId areaLevel1Id areaLevel1 { id name ' +
    '} company { name featureSettings { areas { minUsersForAreaRanking } } } } }';

  it('opens a valid link without any credential', async () => {
    const inv = await s.t.db.prisma.invitation.findFirstOrThrow({ where: { email: 'new.hire1@demo.test' } });
    const jwt = await forgeInvitationLink(inv.id);
    const r = await s.gql(Q, { jwt });
    expect(r.errors).toBeUndefined();
    expect(r.data.invitationByJwt).toMatchObject({
      id: inv.id,
      email: 'new.hire1@demo.test',
      role: 'player',
      company: { name: 'Demo Corp' },
      areaLevel1Id: inv.areaLevel1Id,
    });
  });

  it('a bad, foreign-signed, expired or revoked link is not found', async () => {
    const id = s.demo.invitations['new.hire2@demo.test'];
    const foreign = await forgeInvitationLink(id, { secret: 'some-other-secret-long-enough-for-hs256-xxxx' });
    const expired = await forgeInvitationLink(id, { expiresIn: -10 });
    for (const jwt of ['garbage', foreign, expired]) expect(code(await s.gql(Q, { jwt }))).toBe('NOT_FOUND');
    const valid = await forgeInvitationLink(id);
    await s.t.db.prisma.invitation.update({ where: { id }, data: { revokedAt: new Date() } });
    expect(code(await s.gql(Q, { jwt: valid }))).toBe('NOT_FOUND');
    await s.t.db.prisma.invitation.update({ where: { id }, data: { revokedAt: null } });
  });
});

describe('companiesSearch', () => {
  const Q =
    'query($skip: Int, $take: Int, $search: String) { companiesSearch(skip: $skip, take: $take, search: $search) { ' +
    'id name appPath superiorBanner { link } managerUsers { email } areas { id } tournaments { id } } }';
  const names = (r: { data: { companiesSearch: Array<{ name: string }> } }) =>
    r.data.companiesSearch.map((c) => c.name);

  it(
    'a reseller sees itself and the companies it manages, searched by name, code or appPath, ' + 'case-insensitively',
    async () => {
      expect(names(await s.gql(Q, {}, { ...bearer(reseller), 'x-app-path': 'partners' }))).toEqual([
        'Channel Partners',
        'Demo Corp',
        'Globex',
      ]);
      expect(names(await s.gql(Q, { search: 'GLO' }, bearer(reseller)))).toEqual(['Globex']);
      expect(names(await s.gql(Q, { search: 'demo' }, bearer(reseller)))).toEqual(['Demo Corp']);
      expect(names(await s.gql(Q, { search: 'partn' }, bearer(reseller)))).toEqual(['Channel Partners']);
      expect(names(await s.gql(Q, { skip: 1, take: 1 }, bearer(reseller)))).toEqual(['Demo Corp']);
    },
  );

  it('a player sees only their own company', async () => {
    expect(names(await s.gql(Q, {}, bearer(player)))).toEqual(['Demo Corp']);
    expect(names(await s.gql(Q, { search: 'globex' }, bearer(player)))).toEqual([]);
  });

  it('refuses bad paging with BAD_USER_INPUT naming the argument', async () => {
    for (const [vars, arg] of [
      [{ take: 101 }, 'take'],
      [{ take: 0 }, 'take'],
      [{ skip: -1 }, 'skip'],
      [{ search: 'x'.repeat(101) }, 'search'],
    ] as const) {
      const r = await s.gql(Q, vars, bearer(reseller));
      expect(code(r)).toBe('BAD_USER_INPUT');
      expect(r.errors![0].extensions.argumentName).toBe(arg);
    }
  });
});

describe('tournaments, matches and prediction privacy', () => {
  const MATCH =
    'query($id: Int!) { match(id: $id) { id status predictions { id user { id email company { name } } } } }';

  it(
    "myTournaments nests rounds, matches and predictions; before kickoff only the caller's own " + 'prediction',
    async () => {
      const r = await s.gql(
        '{ myTournaments { id name country { name } rounds { name matches { id date predictions { user { id } } } } ' +
          '} }',
        {},
        bearer(player),
      );
      expect(r.errors).toBeUndefined();
      const matches = r.data.myTournaments[0].rounds.flatMap((round: { matches: unknown[] }) => round.matches);
      const future = matches.filter((m: { date: string }) => new Date(m.date) > new Date());
      expect(future.length).toBeGreaterThan(0);
      for (const m of future) for (const p of m.predictions) expect(p.user.id).toBe(ids.player1);
    },
  );

  it("after kickoff everyone's predictions of the tenant are visible, none of another company", async () => {
    const r = await s.gql(MATCH, { id: ids.pastMatch }, bearer(player));
    const companies = new Set(
      r.data.match.predictions.map((p: { user: { company: { name: string } } }) => p.user.company.name),
    );
    expect(r.data.match.predictions.length).toBeGreaterThan(5);
    expect([...companies]).toEqual(['Demo Corp']);
    const g = await s.gql(MATCH, { id: ids.pastMatch }, bearer(globex));
    expect(
      new Set(g.data.match.predictions.map((p: { user: { company: { name: string } } }) => p.user.company.name)),
    ).toEqual(new Set(['Globex']));
  });

  it('onlyMine restricts to the caller even after kickoff', async () => {
    const r = await s.gql(
      'query($id: Int!) { match(id: $id) { predictions(onlyMine: true) { user { id } } } }',
      { id: ids.pastMatch },
      bearer(player),
    );
    for (const p of r.data.match.predictions) expect(p.user.id).toBe(ids.player1);
  });

  it('tournament(id) and match(id) of a tournament the company does not play are not found', async () => {
    const p = s.t.db.prisma;
    const country = await p.country.create({ data: { name: 'Elsewhere' } });
    const t = await p.tournament.create({ data: { name: 'Private Cup', countryId: country.id } });
    const round = await p.round.create({ data: { tournamentId: t.id, name: 'R', date: new Date(), position: 1 } });
    const team = await p.team.create({ data: { name: 'Solo', countryId: country.id } });
    const m = await p.match.create({
      data: { roundId: round.id, tournamentId: t.id, date: new Date(), homeTeamId: team.id, awayTeamId: team.id },
    });
    expect(code(await s.gql('query($id: Int!) { tournament(id: $id) { id } }', { id: t.id }, bearer(player)))).toBe(
      'NOT_FOUND',
    );
    expect(code(await s.gql(MATCH, { id: m.id }, bearer(player)))).toBe('NOT_FOUND');
    expect(
      (await s.gql('query($id: Int!) { tournament(id: $id) { id } }', { id: ids.tournament }, bearer(player))).data
        .tournament.id,
    ).toBe(ids.tournament);
  });
});
