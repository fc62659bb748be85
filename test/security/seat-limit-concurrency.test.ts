// The seat limit holds under concurrency: sign-ups and accepted invitations sent at once never take a company past
// maxUsersAmount (src/app/seats.ts). Each counted its seats in its own transaction; on PostgreSQL two of them
// counted the same seats free at once and both took one. Now the count runs under a lock of the company's row.
// Runs on the suite's store (SQLite's writers take turns anyway; PostgreSQL is where it used to break).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type GqlResult, type TestServer } from '../helpers/app.ts';

const REGISTER = 'mutation($i: RegisterInput!) { register(input: $i) { token } }';
const ACCEPT =
  'mutation($j: String!, $e: String!, $p: String!) { ' +
  'acceptInvitation(jwt: $j, name: "Guest", password: $p, email: $e) { token } }';
const PASSWORD = 'Seat-password-2026!';
const codeOf = (r: GqlResult<unknown>) => r.errors?.[0]?.extensions.code ?? 'OK';

let s: TestServer;
beforeAll(async () => {
  // Enough derivations at once that the sign-ups reach their transactions together.
  s = await startTestServer({ env: { PASSWORD_HASH_CONCURRENCY: '8' } });
});
afterAll(() => s.close());

describe('maxUsersAmount under parallel register and acceptInvitation', () => {
  it('of 8 sign-ups and 8 accepts at once with 2 seats left, exactly 2 join, in each of 4 rounds', async () => {
    const p = s.t.db.prisma;
    const demo = await p.company.findFirstOrThrow({ where: { appPath: 'demo' } });
    const admin = { ...bearer(await s.loginAs('admin')), 'x-app-path': 'demo' };
    for (let round = 0; round < 4; round++) {
      const active = await p.user.count({ where: { companyId: demo.id, deletedAt: null } });
      await p.company.update({ where: { id: demo.id }, data: { maxUsersAmount: active + 2 } });
      const links: string[] = [];
      for (let i = 0; i < 8; i++) {
        const r = await s.gql(
          'mutation($e: String!) { createInvitation(input: { email: $e }) { token } }',
          { e: `seat-invited-${round}-${i}@demo.test` },
          admin,
        );
        expect(codeOf(r)).toBe('OK');
        links.push(r.data.createInvitation.token);
      }
      const answers = await Promise.all([
        ...Array.from({ length: 8 }, (_, i) =>
          s.gql(
            REGISTER,
            { i: { name: 'Seat', email: `seat-${round}-${i}@demo.test`, password: PASSWORD } },
            { 'x-app-path': 'demo' },
          ),
        ),
        ...links.map((j, i) => s.gql(ACCEPT, { j, e: `seat-invited-${round}-${i}@demo.test`, p: PASSWORD })),
      ]);
      const codes = answers.map(codeOf);
      expect(
        codes.filter((c) => c === 'OK'),
        `round ${round}: ${codes.join(' ')}`,
      ).toHaveLength(2);
      expect(codes.filter((c) => c === 'FORBIDDEN')).toHaveLength(14);
      expect(await p.user.count({ where: { companyId: demo.id, deletedAt: null } })).toBe(active + 2);
    }
  });
});
