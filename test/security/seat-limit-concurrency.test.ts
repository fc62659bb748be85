// The seat limit holds under concurrency: sign-ups, accepted invitations and reactivations sent at once never take
// a company past maxUsersAmount (src/app/seats.ts). Each counted its seats in its own transaction; on PostgreSQL two
// of them counted the same seat free at once and both took it (reactivations, which hash no password, did so in
// every run). Now the count runs under a lock of the company's row. Runs on the suite's database (SQLite's writers
// take turns anyway; PostgreSQL is where it broke).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { bearer, startTestServer, type GqlResult, type TestServer } from '../helpers/app.ts';
import { DEMO_EXTRA_FIELDS } from '../helpers/demo.ts';

const REGISTER = 'mutation($i: RegisterInput!) { register(input: $i) { token } }';
const ACCEPT =
  'mutation($j: String!, $e: String!, $p: String!) { ' +
  'acceptInvitation(jwt: $j, name: "Guest", password: $p, email: $e, ' +
  'extraFields: [{ name: "employeeNumber", value: "E9000" }]) { token } }';
const PASSWORD = 'Seat-password-2026!';
const codeOf = (r: GqlResult<unknown>) => r.errors?.[0]?.extensions.code ?? 'OK';

let s: TestServer;
beforeAll(async () => {
  // Enough derivations at once that the sign-ups reach their transactions together.
  s = await startTestServer({ env: { PASSWORD_HASH_CONCURRENCY: '8' } });
});
afterAll(() => s.close());

describe('maxUsersAmount under parallel register, acceptInvitation and reactivateUser', () => {
  it('sign-ups, accepts and reactivations at once with 1 seat left: exactly 1 joins, in each of 6 rounds', async () => {
    const p = s.t.db.prisma;
    const demo = await p.company.findFirstOrThrow({ where: { appPath: 'demo' } });
    const admin = { ...bearer(await s.loginAs('admin')), 'x-app-path': 'demo' };
    for (let round = 0; round < 6; round++) {
      // Room for the invitations (an invitation to a full company is refused); the seats close below.
      await p.company.update({ where: { id: demo.id }, data: { maxUsersAmount: 10_000 } });
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
      // Eight deactivated people, to be reactivated at once with the rest.
      const asleep = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          p.user.create({
            data: {
              ...DEFAULT_USER_JSON,
              companyId: demo.id,
              name: 'Asleep',
              email: `seat-asleep-${round}-${i}@demo.test`,
              externalId: `seat-asleep-${round}-${i}`,
              loginProviderId: `seat-asleep-${round}-${i}@demo.test`,
              deletedAt: new Date(),
            },
          }),
        ),
      );
      const active = await p.user.count({ where: { companyId: demo.id, deletedAt: null } });
      await p.company.update({ where: { id: demo.id }, data: { maxUsersAmount: active + 1 } });
      const results = await Promise.all([
        ...asleep.map((u) => s.gql('mutation($u: Int!) { reactivateUser(userId: $u) { id } }', { u: u.id }, admin)),
        ...Array.from({ length: 8 }, (_, i) =>
          s.gql(
            REGISTER,
            {
              i: {
                name: 'Seat',
                email: `seat-${round}-${i}@demo.test`,
                password: PASSWORD,
                extraFields: DEMO_EXTRA_FIELDS,
              },
            },
            { 'x-app-path': 'demo' },
          ),
        ),
        ...links.map((j, i) => s.gql(ACCEPT, { j, e: `seat-invited-${round}-${i}@demo.test`, p: PASSWORD })),
      ]);
      const codes = results.map(codeOf);
      expect(
        codes.filter((c) => c === 'OK'),
        `round ${round}: ${codes.join(' ')}`,
      ).toHaveLength(1);
      expect(codes.filter((c) => c === 'FORBIDDEN')).toHaveLength(codes.length - 1);
      expect(await p.user.count({ where: { companyId: demo.id, deletedAt: null } })).toBe(active + 1);
    }
  });
});
