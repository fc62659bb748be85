// An access token must say when it ends: a correctly signed HS256 token without `exp` is refused, over GraphQL
// and REST. Invitation links keep their own rule (the invitation row's expiry is checked on every use).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { forgeAccessToken } from '../helpers/tokens.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

/** An access token signed with the server's own secret, as signAccessToken makes them, with or without `exp`. */
function forge(withExp: boolean) {
  const player = { userId: s.demo.users['player1@demo.test'], companyId: s.demo.companies.DEMO, role: 'player' };
  return forgeAccessToken(player, { withoutExp: !withExp });
}

describe('access tokens without exp', () => {
  it('are UNAUTHENTICATED, where the same token with exp works', async () => {
    const withExp = await forge(true);
    const me = await s.gql('{ me { email } }', {}, bearer(withExp));
    expect(me.data).toEqual({ me: { email: 'player1@demo.test' } });
    expect((await fetch(`${s.url}/tournaments/me`, { headers: bearer(withExp) })).status).toBe(200);

    const noExp = await forge(false);
    expect(JSON.parse(Buffer.from(noExp.split('.')[1], 'base64url').toString())).not.toHaveProperty('exp');
    const r = await s.gql('{ me { email } }', {}, bearer(noExp));
    expect(r.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(r.data).toBeNull();
    const viaRest = await fetch(`${s.url}/tournaments/me`, { headers: bearer(noExp) });
    expect(viaRest.status).toBe(401);
    expect(((await viaRest.json()) as { code: string }).code).toBe('UNAUTHENTICATED');
    const withHeader = await s.gql('{ company { name } }', {}, { ...bearer(noExp), 'x-app-path': 'demo' });
    expect(withHeader.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});
