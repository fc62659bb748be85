// JSON inputs are bounded: every JSON-typed input (theme, colors, extra-field settings and values) nested past
// JSON_INPUT_MAX_DEPTH or larger than JSON_INPUT_MAX_BYTES is refused with BAD_USER_INPUT naming the limit, as a
// variable and as a literal; a document nested past DOCUMENT_MAX_NESTING (a literal 5,000 deep, which overflowed the
// parser's stack) is refused before it is parsed; REST bodies likewise. Never a 500, and nothing is written.
import { describe, expect, it } from 'vitest';
import { bearer } from '../../helpers/app.ts';
import { liveClient } from '../../helpers/live.ts';
import { DOCUMENT_MAX_NESTING, JSON_INPUT_MAX_BYTES, JSON_INPUT_MAX_DEPTH } from '../../../src/graphql/input-limits.ts';
import { target, useHostileServer } from './server.ts';

useHostileServer();

// Built as text: JSON.stringify itself overflows on a value 5,000 deep.
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const deepLiteral = (depth: number) => `${'{a:'.repeat(depth)}1${'}'.repeat(depth)}`;
const deepList = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

interface Result {
  status: number;
  body: { errors?: Array<{ message: string; extensions: { code: string; limit?: string } }>; data?: unknown };
}

async function post(text: string, headers: Record<string, string>): Promise<Result> {
  const res = await fetch(`${target.s.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: text,
  });
  return { status: res.status, body: (await res.json()) as Result['body'] };
}

/** A JSON input of each kind: the mutation with `$v` (a variable) or `VALUE` (a literal) where the JSON goes. */
interface JsonInput {
  name: string;
  user: 'admin' | 'manager';
  variableType: string;
  /** The value inside a valid shape: JSONObject inputs take an object, so the deep part sits under a key. */
  wrap: (json: string) => string;
  document: (value: string) => string;
}

const INPUTS: JsonInput[] = [
  {
    name: 'updateCompany theme',
    user: 'admin',
    variableType: 'JSONObject',
    wrap: (j) => `{"x":${j}}`,
    document: (v) => `mutation($v: JSONObject) { updateCompany(companyId: COMPANY, input: { theme: ${v} }) { id } }`,
  },
  {
    name: 'updateCompany customColors',
    user: 'admin',
    variableType: 'JSONObject',
    wrap: (j) => `{"x":${j}}`,
    document: (v) =>
      `mutation($v: JSONObject) { updateCompany(companyId: COMPANY, input: { customColors: ${v} }) { id } }`,
  },
  {
    name: 'createCompany theme',
    user: 'manager',
    variableType: 'JSONObject',
    wrap: (j) => `{"x":${j}}`,
    document: (v) =>
      `mutation($v: JSONObject) { createCompany(input: { name: "Deep", code: "DEEP", theme: ${v} }) { id } }`,
  },
  {
    name: 'createExtraField settings',
    user: 'admin',
    variableType: 'JSONObject',
    wrap: (j) => `{"x":${j}}`,
    document: (v) =>
      `mutation($v: JSONObject) { createExtraField(input: { name: "deep", type: city, settings: ${v} }) { id } }`,
  },
  {
    name: 'createExtraField group',
    user: 'admin',
    variableType: 'JSONObject',
    wrap: (j) => `{"x":${j}}`,
    document: (v) =>
      `mutation($v: JSONObject) { createExtraField(input: { name: "deep2", type: city, group: ${v} }) { id } }`,
  },
  {
    name: 'updateMe extra-field value',
    user: 'admin',
    variableType: 'JSON',
    wrap: (j) => j,
    document: (v) => `mutation($v: JSON) { updateMe(input: { extraFields: [{ name: "city", value: ${v} }] }) { id } }`,
  },
];

describe('JSON inputs are bounded', () => {
  for (const input of INPUTS) {
    it(`${input.name}: deep and large values are refused with the limit named, as variables and literals`, async () => {
      const s = target.s;
      const token = bearer(await s.loginAs(input.user));
      const headers = input.user === 'admin' ? { ...token, 'x-app-path': 'demo' } : token;
      const doc = (v: string) => input.document(v).replace('COMPANY', String(s.demo.companies.DEMO));
      const asVariable = (json: string) =>
        post(`{"query":${JSON.stringify(doc('$v'))},"variables":{"v":${input.wrap(json)}}}`, headers);
      const asLiteral = (literal: string) =>
        post(JSON.stringify({ query: doc(input.wrap(literal).replace(/"x":/, 'x:')) }), headers);
      const refused = (a: Result, limit: string, max: number) => {
        expect(a.status, JSON.stringify(a.body)).toBe(400);
        expect(a.body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
        expect(a.body.errors?.[0].message).toContain(`exceeds the maximum of ${max} (${limit})`);
      };
      const before = await Promise.all([
        s.t.db.prisma.company.findMany({ orderBy: { id: 'asc' } }),
        s.t.db.prisma.companyExtraField.count(),
      ]);

      for (const depth of [JSON_INPUT_MAX_DEPTH + 1, 5_000]) {
        refused(await asVariable(deepObject(depth)), 'JSON_INPUT_MAX_DEPTH', JSON_INPUT_MAX_DEPTH);
        refused(await asVariable(deepList(depth)), 'JSON_INPUT_MAX_DEPTH', JSON_INPUT_MAX_DEPTH);
      }
      refused(await asLiteral(deepLiteral(JSON_INPUT_MAX_DEPTH + 1)), 'JSON_INPUT_MAX_DEPTH', JSON_INPUT_MAX_DEPTH);
      refused(await asLiteral(deepList(JSON_INPUT_MAX_DEPTH + 1)), 'JSON_INPUT_MAX_DEPTH', JSON_INPUT_MAX_DEPTH);
      // Past what the parser could read without overflowing: refused before it is parsed.
      refused(await asLiteral(deepLiteral(5_000)), 'DOCUMENT_MAX_NESTING', DOCUMENT_MAX_NESTING);
      refused(await asLiteral(deepList(5_000)), 'DOCUMENT_MAX_NESTING', DOCUMENT_MAX_NESTING);

      const big = JSON.stringify('x'.repeat(JSON_INPUT_MAX_BYTES));
      refused(await asVariable(big), 'JSON_INPUT_MAX_BYTES', JSON_INPUT_MAX_BYTES);
      refused(await asLiteral(big), 'JSON_INPUT_MAX_BYTES', JSON_INPUT_MAX_BYTES);
      const wide = `[${Array(JSON_INPUT_MAX_BYTES / 2)
        .fill('1')
        .join(',')}]`;
      refused(await asVariable(wide), 'JSON_INPUT_MAX_BYTES', JSON_INPUT_MAX_BYTES);
      if (input.variableType === 'JSONObject') {
        // A variable of another type inside the literal ({ x: $s }): validation cannot bound it, the scalar does.
        const inside = doc(input.wrap('$s').replace(/"x":/, 'x:')).replace(
          /^mutation\(\$v: \w+\)/,
          'mutation($s: String)',
        );
        const text = JSON.stringify({ query: inside, variables: { s: 'x'.repeat(JSON_INPUT_MAX_BYTES) } });
        const a = await post(text, headers);
        expect(a.status, JSON.stringify(a.body)).toBe(400);
        expect(a.body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
        expect(a.body.errors?.[0].message).toContain('holds the variable $s');
      }

      const after = await Promise.all([
        s.t.db.prisma.company.findMany({ orderBy: { id: 'asc' } }),
        s.t.db.prisma.companyExtraField.count(),
      ]);
      expect(after).toEqual(before);
    });
  }

  it('a value within the limits is still taken', async () => {
    const s = target.s;
    const headers = { ...bearer(await s.loginAs('admin')), 'x-app-path': 'demo' };
    const theme = JSON.parse(`{"mode":"dark","x":${deepObject(JSON_INPUT_MAX_DEPTH - 2)}}`) as object;
    const r = await s.gql(
      'mutation($c: Int!, $v: JSONObject) { updateCompany(companyId: $c, input: { theme: $v }) { theme } }',
      { c: s.demo.companies.DEMO, v: theme },
      headers,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ updateCompany: { theme } });
  });

  it('a GET query nested too deep is refused the same way; brackets in text do not count', async () => {
    const s = target.s;
    const query = `{ me(x: ${deepLiteral(DOCUMENT_MAX_NESTING)}) { id } }`;
    const get = await fetch(`${s.url}/graphql?query=${encodeURIComponent(query)}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(get.status).toBe(400);
    const body = (await get.json()) as Result['body'];
    expect(body.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', limit: 'DOCUMENT_MAX_NESTING' });
    // Brackets inside strings and comments are text, not nesting.
    const quoted = await post(
      JSON.stringify({ query: `# ${'{'.repeat(5_000)}\n{ __typename }`, variables: { s: '['.repeat(5_000) } }),
      {},
    );
    expect(quoted.body).toMatchObject({ data: { __typename: 'Query' } });
  });

  it('WebSocket: a subscription document nested 5,000 deep is refused with the limit named', async () => {
    const s = target.s;
    const live = liveClient(s.url, { authorization: `Bearer ${await s.loginAs('player')}` });
    try {
      const watch = live.subscribe(`subscription { matchUpdated(matchId: 1, x: ${deepLiteral(5_000)}) { id } }`);
      const { error } = await watch.ended;
      const first = (error as Array<{ message: string; extensions?: { code?: string; limit?: string } }>)[0];
      expect(first.extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'DOCUMENT_MAX_NESTING' });
      expect(first.message).toContain(`exceeds the maximum of ${DOCUMENT_MAX_NESTING}`);
    } finally {
      await live.dispose();
    }
  });

  it('REST: a PATCH body nested 5,000 deep returns 400 BAD_USER_INPUT, not 500', async () => {
    const s = target.s;
    const headers = { ...bearer(await s.loginAs('admin')), 'x-app-path': 'demo', 'content-type': 'application/json' };
    const id = s.demo.invitations['new.hire1@demo.test'];
    for (const body of [
      `{"company":${deepObject(5_000)}}`,
      `{"name":${deepObject(5_000)}}`,
      `{"areaLevel1":${deepList(5_000)}}`,
    ]) {
      const res = await fetch(`${s.url}/invitations/${id}`, { method: 'PATCH', headers, body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('BAD_USER_INPUT');
    }
  });
});
