import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer({ env: { GRAPHQL_MAX_DEPTH: '12', GRAPHQL_MAX_FIELDS: '300' } });
  token = await s.loginAs('reseller');
});
afterAll(() => s.close());

const first = (r: { errors?: Array<{ message: string; extensions: Record<string, unknown> }> }) => r.errors?.[0];

describe('query limits and argument errors', () => {
  it('refuses a query deeper than GRAPHQL_MAX_DEPTH before running it', async () => {
    const deep =
      '{ company { areas { childrenAreas { childrenAreas { childrenAreas { childrenAreas { childrenAreas { ' +
      'childrenAreas { childrenAreas { childrenAreas { childrenAreas { childrenAreas { id } } } } } } } } } } } } }';
    const r = await s.gql(deep, {}, bearer(token));
    expect(first(r)?.extensions.code).toBe('BAD_USER_INPUT');
    expect(first(r)?.message).toMatch(/depth 13 exceeds the maximum of 12/);
    // Only the data-version read and the credential lookup ran (user and company); no resolver did.
    expect(r.extensions?.sqlStatements ?? 0).toBeLessThanOrEqual(3);
  });

  it('counts aliases and fragments each time they apply', async () => {
    const aliases = Array.from({ length: 40 }, (_, i) => `a${i}: company { ...F }`).join(' ');
    const r = await s.gql(
      `{ ${aliases} } fragment F on Company { id name code areas { id name } tournaments { id name } }`,
      {},
      bearer(token),
    );
    expect(first(r)?.message).toMatch(/more than 300 fields/);
  });

  it('bad argument values are BAD_USER_INPUT naming the argument, never an internal error', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['{ companiesSearch(take: "ten") { id } }', {}, 'take'],
      ['{ companiesSearch(take: -5) { id } }', {}, 'take'],
      ['query($t: Int) { companiesSearch(take: $t) { id } }', { t: 'ten' }, 't'],
      ['query($t: Int) { companiesSearch(take: $t) { id } }', { t: 2 ** 40 }, 't'],
      ['mutation { updateInvitation(id: 1, input: { role: wizard }) { id } }', {}, 'role'],
      ['query($id: Int!) { post(id: $id) { id } }', { id: -3 }, 'id'],
    ];
    for (const [query, variables, arg] of cases) {
      const r = await s.gql(query, variables, bearer(token));
      expect(first(r)?.extensions.code, query).toBe('BAD_USER_INPUT');
      expect(first(r)?.message + JSON.stringify(first(r)?.extensions), query).toContain(arg);
    }
  });

  it(
    'spreads of undefined fragments named like Object.prototype members are a validation error, not a ' + 'crash',
    async () => {
      for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
        const r = await s.gql(`{ me { id ...${name} } }`, {}, bearer(token));
        expect(r.status, name).toBe(400);
        expect(r.errors?.[0].extensions.code, name).toBe('GRAPHQL_VALIDATION_FAILED');
        expect(r.errors?.[0].message, name).toMatch(new RegExp(`Unknown fragment "${name}"`));
      }
    },
  );

  it('with introspection off, errors suggest no field, argument or enum names', async () => {
    const closed = await startTestServer({ env: { GRAPHQL_INTROSPECTION: 'false' } });
    try {
      const t = await closed.loginAs('player');
      const cases = [
        '{ mee { id } }',
        '{ me { nme } }',
        '{ companiesSearch(tak: 3) { id } }',
        'mutation { updateInvitation(id: 1, input: { role: playr }) { id } }',
        'query($r: Role) { me { id } }',
      ];
      for (const query of cases) {
        const r = await closed.gql(query, { r: 'playr' }, bearer(t));
        expect(r.errors?.length, query).toBeGreaterThan(0);
        for (const e of r.errors!) expect(e.message, query).not.toMatch(/Did you mean/);
      }
      // The same mistake with introspection on (development) still gets the hint.
      const open = await s.gql('{ mee { id } }', {}, bearer(token));
      expect(open.errors?.[0].message).toMatch(/Did you mean "me"\?/);
    } finally {
      await closed.close();
    }
  });
});
