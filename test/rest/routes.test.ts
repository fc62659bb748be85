// The REST routes over HTTP on the demo data: status codes, error bodies, tenancy, and equality with the
// `data` of the same stored GraphQL operation.
import type { DocumentNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RestCompaniesSearchDocument,
  RestInvitationByJwtDocument,
  RestMyTournamentsDocument,
  RestPostCommentsDocument,
  RestPostDocument,
  RestUpdateInvitationDocument,
} from '../../src/graphql/generated/operations.ts';
import { restMessage } from '../../src/rest/routes.ts';
import { bearer, DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/app.ts';
import { forgeInvitationLink } from '../helpers/tokens.ts';

let s: TestServer;
let tokens: Record<string, string>;
let ids: {
  demoPost: number;
  globexPost: number;
  invitation: number;
  globexInvitation: number;
  globexArea: number;
  demoL2: number;
};

beforeAll(async () => {
  s = await startTestServer();
  tokens = await s.loginAll(['player', 'admin', 'reseller', 'globexAdmin']);
  const { posts, invitations, areas } = s.demo;
  ids = {
    demoPost: posts.demo[0],
    globexPost: posts.globex,
    invitation: invitations['new.hire2@demo.test'],
    globexInvitation: invitations['new.hire@globex.test'],
    globexArea: areas.Headquarters,
    demoL2: areas['Buenos Aires'],
  };
});
afterAll(() => s.close());

async function rest(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const expectError = (r: { status: number; body: any }, status: number, code: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body).toEqual({ statusCode: status, error: expect.any(String), code, message: expect.any(String) });
};

/** The same stored operation through /graphql: REST must return exactly its data. */
async function viaGraphql(
  doc: DocumentNode,
  variables: Record<string, unknown>,
  headers: Record<string, string>,
  field: string,
) {
  const r = await s.gql(doc, variables, headers);
  expect(r.errors).toBeUndefined();
  return r.data[field];
}

const SECRET = /scrypt\$|passwordHash|recoverPasswordToken|skipLoginToken/;

describe('GET /posts/:id', () => {
  it('returns the post with its author, company, comments and likes: the data of the stored operation', async () => {
    const r = await rest('GET', `/posts/${ids.demoPost}`, bearer(tokens.player));
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(ids.demoPost);
    expect(r.body.user.company.featureSettings.community).toBeDefined();
    expect(r.body.comments[0].likes).toEqual([]); // cut off at this depth
    expect(r.body.user.predictions).toEqual([]);
    expect(JSON.stringify(r.body)).not.toMatch(SECRET);
    expect(r.body).toEqual(await viaGraphql(RestPostDocument, { id: ids.demoPost }, bearer(tokens.player), 'post'));
  });

  it('401 without a credential, 404 for another tenant and for a missing post, 400 for a malformed id', async () => {
    expectError(await rest('GET', `/posts/${ids.demoPost}`), 401, 'UNAUTHENTICATED');
    expectError(await rest('GET', `/posts/${ids.globexPost}`, bearer(tokens.player)), 404, 'NOT_FOUND');
    expectError(await rest('GET', '/posts/999999', bearer(tokens.player)), 404, 'NOT_FOUND');
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999'])
      expectError(await rest('GET', `/posts/${bad}`, bearer(tokens.player)), 400, 'BAD_USER_INPUT');
  });

  it('x-app-company: allowed for the reseller managing the company, refused for others', async () => {
    // A code matches without regard to case, as x-app-path and x-app-host do.
    for (const code of ['GLOBEX', 'globex', 'Globex', ' gLoBeX '])
      expect(
        (await rest('GET', `/posts/${ids.globexPost}`, { ...bearer(tokens.reseller), 'x-app-company': code })).status,
        code,
      ).toBe(200);
    expectError(
      await rest('GET', `/posts/${ids.globexPost}`, { ...bearer(tokens.reseller), 'x-app-company': 'GLOBEX2' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await rest('GET', `/posts/${ids.globexPost}`, { ...bearer(tokens.admin), 'x-app-company': 'GLOBEX' }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await rest('GET', `/posts/${ids.demoPost}`, { ...bearer(tokens.player), 'x-app-company': 'DEMO' }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('GET /posts/:postId/comments', () => {
  it('returns the comments array, equal to the stored operation data', async () => {
    const r = await rest('GET', `/posts/${ids.demoPost}/comments`, bearer(tokens.player));
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(3);
    expect(r.body[0].post.id).toBe(ids.demoPost);
    expect(r.body).toEqual(
      await viaGraphql(RestPostCommentsDocument, { postId: ids.demoPost }, bearer(tokens.player), 'postComments'),
    );
  });

  it('x-app-company: allowed for the managing reseller, refused for an admin', async () => {
    const r = await rest('GET', `/posts/${ids.globexPost}/comments`, {
      ...bearer(tokens.reseller),
      'x-app-company': 'GLOBEX',
    });
    expect(r.status).toBe(200);
    expect(r.body[0].post.id).toBe(ids.globexPost);
    expectError(
      await rest('GET', `/posts/${ids.globexPost}/comments`, { ...bearer(tokens.admin), 'x-app-company': 'GLOBEX' }),
      403,
      'FORBIDDEN',
    );
  });

  it('401, 404 and 400 as for the post', async () => {
    expectError(await rest('GET', `/posts/${ids.demoPost}/comments`), 401, 'UNAUTHENTICATED');
    expectError(await rest('GET', `/posts/${ids.globexPost}/comments`, bearer(tokens.player)), 404, 'NOT_FOUND');
    expectError(await rest('GET', '/posts/x/comments', bearer(tokens.player)), 400, 'BAD_USER_INPUT');
  });
});

describe('GET /invitations/jwt/:jwt', () => {
  it('is public and returns the invitation with the full company', async () => {
    const jwt = await forgeInvitationLink(ids.invitation);
    const r = await rest('GET', `/invitations/jwt/${jwt}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: ids.invitation, email: 'new.hire2@demo.test', company: { name: 'Demo Corp' } });
    expect(r.body).toEqual(await viaGraphql(RestInvitationByJwtDocument, { jwt }, {}, 'invitationByJwt'));
  });

  it('404 for a bad or foreign token', async () => {
    expectError(await rest('GET', '/invitations/jwt/not-a-token'), 404, 'NOT_FOUND');
    const foreign = await forgeInvitationLink(ids.invitation, { secret: 'x'.repeat(40) });
    expectError(await rest('GET', `/invitations/jwt/${foreign}`), 404, 'NOT_FOUND');
  });
});

describe('PATCH /invitations/:id', () => {
  const snapshot = () => s.t.db.prisma.invitation.findUniqueOrThrow({ where: { id: ids.invitation } });

  it('200 with the invitation and its compact company', async () => {
    const r = await rest(
      'PATCH',
      `/invitations/${ids.invitation}`,
      { ...bearer(tokens.admin), 'x-app-path': 'demo' },
      { name: 'Grace Hopper', role: 'player' },
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: ids.invitation,
      name: 'Grace Hopper',
      role: 'player',
      company: { name: 'Demo Corp', tournaments: [] },
    });
    expect(r.body.company.featureSettings).toBeUndefined(); // compact form
    // The same change through the stored mutation on /graphql returns the same body.
    const again = await s.gql(
      RestUpdateInvitationDocument,
      { id: ids.invitation, input: { name: 'Grace Hopper', role: 'player' } },
      { ...bearer(tokens.admin), 'x-app-path': 'demo' },
    );
    expect(again.data.updateInvitation).toEqual(r.body);
  });

  it('returns the same externalId as the lookup by JWT, with or without one given', async () => {
    const h = { ...bearer(tokens.admin), 'x-app-path': 'demo' };
    const create = `mutation ($input: CreateInvitationInput!) { createInvitation(input: $input) {
      token invitation { id } } }`;
    for (const [email, externalId] of [
      ['ext.none@demo.test', undefined],
      ['ext.given@demo.test', 'HR-0042'],
    ] as const) {
      const created = await s.gql(create, { input: { email, ...(externalId ? { externalId } : {}) } }, h);
      expect(created.errors).toBeUndefined();
      const { token, invitation } = created.data.createInvitation;
      const patched = await rest('PATCH', `/invitations/${invitation.id}`, h, { name: 'Same Id' });
      const looked = await rest('GET', `/invitations/jwt/${token}`);
      expect(patched.status).toBe(200);
      expect(looked.status).toBe(200);
      expect(patched.body.externalId).toBe(externalId ?? String(invitation.id));
      expect(looked.body.externalId).toBe(patched.body.externalId);
    }
  });

  it('400 for bad bodies and values, 409 for a duplicate e-mail, and nothing changes', async () => {
    const before = await snapshot();
    const h = { ...bearer(tokens.admin), 'x-app-path': 'demo' };
    const cases: Array<[unknown, number, string]> = [
      [{ role: 'wizard' }, 400, 'BAD_USER_INPUT'],
      [{ areaLevel1: { id: ids.globexArea } }, 400, 'BAD_USER_INPUT'],
      [{ areaLevel1: { id: ids.demoL2 } }, 400, 'BAD_USER_INPUT'],
      [{ email: 'nope' }, 400, 'BAD_USER_INPUT'],
      [{ email: 'player4@demo.test' }, 409, 'CONFLICT'],
      [{ company: { id: 'x' } }, 400, 'BAD_USER_INPUT'],
      [{ nickname: 'x' }, 400, 'BAD_USER_INPUT'],
      [{}, 400, 'BAD_USER_INPUT'],
      [[1, 2], 400, 'BAD_USER_INPUT'],
      ['{not json', 400, 'BAD_USER_INPUT'],
    ];
    for (const [body, status, code] of cases)
      expectError(await rest('PATCH', `/invitations/${ids.invitation}`, h, body), status, code);
    expectError(await rest('PATCH', `/invitations/${ids.invitation}`, h), 400, 'BAD_USER_INPUT'); // no body at all
    expectError(await rest('PATCH', '/invitations/abc', h, { name: 'x' }), 400, 'BAD_USER_INPUT');
    expect(await snapshot()).toEqual(before);
  });

  it('401 without a credential, 404 for another tenant, 403 for a player', async () => {
    expectError(await rest('PATCH', `/invitations/${ids.invitation}`, {}, { name: 'x' }), 401, 'UNAUTHENTICATED');
    expectError(
      await rest('PATCH', `/invitations/${ids.globexInvitation}`, bearer(tokens.admin), { name: 'x' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await rest('PATCH', `/invitations/${ids.invitation}`, bearer(tokens.player), { name: 'x' }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('GET /companies/search', () => {
  it(
    'returns compact companies with tournaments, rounds, matches and predictions, equal to the stored ' + 'operation',
    async () => {
      const r = await rest('GET', '/companies/search?search=demo', {
        ...bearer(tokens.reseller),
        'x-app-path': 'partners',
      });
      expect(r.status).toBe(200);
      expect(r.body.map((c: { name: string }) => c.name)).toEqual(['Demo Corp']);
      expect(r.body[0].tournaments[0].rounds[0].matches.length).toBeGreaterThan(0);
      expect(r.body[0].managerUsers.map((u: { email: string }) => u.email)).toEqual(['admin@demo.test']);
      expect(r.body).toEqual(
        await viaGraphql(
          RestCompaniesSearchDocument,
          { search: 'demo' },
          { ...bearer(tokens.reseller), 'x-app-path': 'partners' },
          'companiesSearch',
        ),
      );
    },
  );

  it('400 for bad paging and unknown parameters, 401 without a credential', async () => {
    const h = bearer(tokens.reseller);
    for (const q of ['take=101', 'take=0', 'take=ten', 'skip=-1', 'skip=1.5', 'take=1&take=2', 'page=2']) {
      expectError(await rest('GET', `/companies/search?${q}`, h), 400, 'BAD_USER_INPUT');
    }
    expectError(await rest('GET', '/companies/search'), 401, 'UNAUTHENTICATED');
  });
});

describe('GET /tournaments/me', () => {
  it("nests rounds, matches and only the caller's own predictions, equal to the stored operation", async () => {
    const r = await rest('GET', '/tournaments/me', { ...bearer(tokens.player), 'x-app-path': 'demo' });
    expect(r.status).toBe(200);
    const predictions = r.body.flatMap((t: any) =>
      t.rounds.flatMap((rd: any) => rd.matches.flatMap((m: any) => m.predictions)),
    );
    expect(predictions.length).toBeGreaterThan(5);
    expect(new Set(predictions.map((p: any) => p.user.email))).toEqual(new Set(['player1@demo.test']));
    expect(predictions[0].user.company.name).toBe('Demo Corp');
    expect(r.body).toEqual(
      await viaGraphql(
        RestMyTournamentsDocument,
        {},
        { ...bearer(tokens.player), 'x-app-path': 'demo' },
        'myTournaments',
      ),
    );
  });

  it('401 without a credential, 403 for another tenant named by x-app-host', async () => {
    expectError(await rest('GET', '/tournaments/me'), 401, 'UNAUTHENTICATED');
    expectError(
      await rest('GET', '/tournaments/me', { ...bearer(tokens.player), 'x-app-host': 'prode.globex.test' }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('POST /auth/login and unknown routes', () => {
  it('logs in and refuses bad credentials and bodies', async () => {
    const ok = await rest(
      'POST',
      '/auth/login',
      { 'x-app-path': 'demo' },
      { email: 'player1@demo.test', password: 'Prode-demo-2026!' },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.token).toMatch(/^ey/);
    expect(JSON.stringify(ok.body)).not.toMatch(SECRET);
    expectError(
      await rest('POST', '/auth/login', { 'x-app-path': 'demo' }, { email: 'player1@demo.test', password: 'nope' }),
      401,
      'UNAUTHENTICATED',
    );
    expectError(await rest('POST', '/auth/login', {}, { email: 1 }), 400, 'BAD_USER_INPUT');
  });

  it('an unknown route is a 404 with the error body', async () => {
    expectError(await rest('GET', '/nope'), 404, 'NOT_FOUND');
  });
});

describe('every route: wrong methods, query parameters, content types and REST words', () => {
  // Each route with its path, its method, and a request that would succeed (headers, body).
  const ROUTES = () =>
    [
      ['GET', `/posts/${ids.demoPost}`, bearer(tokens.player)],
      ['GET', `/posts/${ids.demoPost}/comments`, bearer(tokens.player)],
      ['GET', '/invitations/jwt/some-token', {}],
      ['PATCH', `/invitations/${ids.invitation}`, { ...bearer(tokens.admin), 'x-app-path': 'demo' }],
      ['GET', '/companies/search', bearer(tokens.reseller)],
      ['GET', '/tournaments/me', bearer(tokens.player)],
      ['POST', '/auth/login', { 'x-app-path': 'demo' }],
    ] as Array<[string, string, Record<string, string>]>;

  it('a known path with a method it does not serve is a 405 whose Allow lists the ones it does', async () => {
    const cases: Array<[string, string, string]> = [
      ...ROUTES().flatMap(([method, path]) => {
        const allow = method === 'GET' ? 'GET, HEAD' : method;
        return ['DELETE', 'PUT', method === 'GET' ? 'POST' : 'GET'].map(
          (m) => [m, path, allow] as [string, string, string],
        );
      }),
      ['PUT', '/graphql', 'GET, POST, OPTIONS'],
      ['HEAD', '/graphql', 'GET, POST, OPTIONS'], // Apollo serves no HEAD, so Allow does not list it
      ['DELETE', '/healthz', 'GET, HEAD'],
      ['POST', '/openapi.json', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await fetch(`${s.url}${path}`, { method, headers: bearer(tokens.admin) });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
      if (method === 'HEAD') continue; // no body
      const body = await res.json();
      expect(body).toEqual({
        statusCode: 405,
        error: 'Method Not Allowed',
        code: 'METHOD_NOT_ALLOWED',
        message: expect.stringContaining(`does not serve ${method}`),
      });
      expect(body.message).not.toContain('some-token'); // invitation links stay out of messages
    }
    // Unknown paths stay 404, whatever the method.
    for (const [method, path] of [
      ['GET', '/nope'],
      ['DELETE', '/posts/1/likes'],
      ['PATCH', '/invitations'],
    ]) {
      const res = await fetch(`${s.url}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('allow')).toBeNull();
    }
  });

  it('every route refuses a query parameter it does not take, naming it', async () => {
    for (const [method, path, headers] of ROUTES()) {
      const r = await rest(method, `${path}?utm_source=mail`, headers, method === 'GET' ? undefined : { name: 'x' });
      expectError(r, 400, 'BAD_USER_INPUT');
      expect(r.body.message, `${method} ${path}`).toMatch(/^unknown query parameter utm_source \(this route takes /);
    }
  });

  it('a body that is not JSON is a 415 on the routes that take one, and nothing changes', async () => {
    const before = await s.t.db.prisma.invitation.findUniqueOrThrow({ where: { id: ids.invitation } });
    const login = JSON.stringify({ email: 'player1@demo.test', password: DEMO_PASSWORD });
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      for (const [method, path, headers, body] of [
        ['PATCH', `/invitations/${ids.invitation}`, { ...bearer(tokens.admin), 'x-app-path': 'demo' }, '{"name":"x"}'],
        ['POST', '/auth/login', { 'x-app-path': 'demo' }, login],
      ] as const) {
        const res = await fetch(`${s.url}${path}`, { method, headers: { ...headers, 'content-type': type }, body });
        expect(res.status, `${type} ${method} ${path}`).toBe(415);
        expect(await res.json()).toEqual({
          statusCode: 415,
          error: 'Unsupported Media Type',
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'unsupported content type: send application/json',
        });
      }
    }
    expect(await s.t.db.prisma.invitation.findUniqueOrThrow({ where: { id: ids.invitation } })).toEqual(before);
  });

  it('bad input is worded in REST terms on every route, never as GraphQL variables', async () => {
    const admin = { ...bearer(tokens.admin), 'x-app-path': 'demo' };
    const patch = `/invitations/${ids.invitation}`;
    const cases: Array<[string, string, Record<string, string>, unknown, RegExp]> = [
      ['GET', '/posts/0', bearer(tokens.player), undefined, /^path parameter id /],
      ['GET', '/posts/x/comments', bearer(tokens.player), undefined, /^path parameter postId /],
      ['PATCH', '/invitations/99999999999', admin, { name: 'x' }, /^path parameter id /],
      ['PATCH', patch, admin, { role: 'king' }, /^body field role must be one of player, admin, reseller, manager$/],
      ['PATCH', patch, admin, { role: '' }, /^body field role must be one of /],
      ['PATCH', patch, admin, { name: 42 }, /^body field name must be a string$/],
      ['PATCH', patch, admin, { name: 'a\u0000b' }, /^body field name must not contain a NUL character$/],
      ['PATCH', patch, admin, { areaLevel2: { id: 1.5 } }, /^body field areaLevel2 must be an object with /],
      ['PATCH', patch, admin, { nickname: 'x' }, /^unknown body field nickname /],
      ['GET', '/companies/search?take=2147483648', bearer(tokens.reseller), undefined, /^query parameter take /],
      ['GET', '/companies/search?skip=-99999999999', bearer(tokens.reseller), undefined, /^query parameter skip /],
      ['GET', '/companies/search?search=a%00b', bearer(tokens.reseller), undefined, /^query parameter search must not/],
      ['POST', '/auth/login', {}, { email: 'a@b.c', password: 7 }, /^body field password must be a string$/],
      ['POST', '/auth/login', {}, { email: 'a\u0000@b.c', password: 'x' }, /^body field email must not contain a NUL/],
    ];
    for (const [method, path, headers, body, message] of cases) {
      const r = await rest(method, path, headers, body);
      expectError(r, 400, 'BAD_USER_INPUT');
      expect(r.body.message, `${method} ${path} ${JSON.stringify(body)}`).toMatch(message);
      expect(r.body.message).not.toMatch(/variable|\$input|enum|Int cannot/i);
    }
  });

  it("GraphQL's refusal of a variable, should a route let one through, is reworded for REST", () => {
    const from = { id: 'path parameter id', input: 'body', take: 'query parameter take' };
    expect(
      restMessage(
        'argument "input": Variable "$input" got invalid value "king" at "input.role"; Value "king" does not exist ' +
          'in "Role" enum.',
        from,
      ),
    ).toBe('body field role has a value of the wrong type or out of range');
    expect(
      restMessage(
        'Variable "$take" got invalid value 2147483648; Int cannot represent non 32-bit signed integer value',
        from,
      ),
    ).toBe('query parameter take has a value of the wrong type or out of range');
    expect(restMessage('variable "$input" contains a NUL character (\\u0000), which no text may hold', from)).toBe(
      'the body must not contain a NUL character',
    );
    expect(restMessage('take must be an integer from 1 to 100', from)).toBe('take must be an integer from 1 to 100');
  });
});
