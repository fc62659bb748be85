// Hostile input (properties.ts says which properties hold) in credentials: forged, tampered, expired, foreign-tenant
// and garbage JWTs on every route; and tokens signed with the service's own secret whose claims lie grant nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../helpers/app.ts';
import { JWT_NAMES, tenantHeadersArb } from './credentials.ts';
import { BASE_SEED, closingChecks, hostile } from './properties.ts';
import { gqlPost, resolvePath, type Auth, type Req } from './requests.ts';
import { target, useHostileServer } from './server.ts';

useHostileServer();

describe('hostile input: no 5xx, documented error bodies, coded GraphQL errors, no stack traces', () => {
  it('credentials: forged, tampered, expired, foreign-tenant and garbage JWTs on every route', async () => {
    const routes = [
      '/posts/1',
      '/posts/1/comments',
      '/tournaments/me',
      '/companies/search',
      `/invitations/jwt/<invitation-jwt>`,
    ];
    const arb = fc
      .tuple(
        fc.constantFrom(...JWT_NAMES).map((name): Auth => ({ kind: 'jwt', name })),
        fc.constantFrom(...routes, '/graphql'),
        tenantHeadersArb,
      )
      .map(([auth, path, tenant]): Req =>
        path === '/graphql'
          ? {
              ...gqlPost('jwt', '{ me { id email company { id } } company { id } myTournaments { id } }', {}, auth),
              headers: { 'content-type': 'application/json', ...tenant },
            }
          : resolvePath({ cat: 'jwt', method: 'GET', path, headers: tenant, auth }),
      );
    await hostile('jwt', arb, 15, BASE_SEED + 7);
  });

  it('a token signed with the service secret but naming another tenant grants nothing', async () => {
    const { s, jwts } = target;
    for (const name of ['otherTenant', 'otherTenantAdmin']) {
      const r = await s.gql('{ me { id } }', {}, bearer(jwts[name]));
      expect(r.errors?.[0].extensions.code, name).toBe('UNAUTHENTICATED');
    }
    // The role claim is not believed: player1 stays a player.
    const escalated = await s.gql(
      '{ company { id } }',
      {},
      { ...bearer(jwts.roleEscalation), 'x-app-company': 'GLOBEX' },
    );
    expect(escalated.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const tampered = await s.gql('{ me { id } }', {}, bearer(jwts.tamperedPayload));
    expect(tampered.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  closingChecks(60);
});
