// The matrix is complete: every root Query, Mutation and Subscription field of schema.graphql and every REST route
// of the OpenAPI document has at least one row, over the union of the tables' rows, and no row names an operation that
// no longer exists. Without this, a new operation would ship with no isolation test at all.
import { readFileSync } from 'node:fs';
import { Kind, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/app.ts';
import { MUTATION_CASES } from './mutation-cases.ts';
import { OPERATOR_CASES } from './operator-cases.ts';
import { QUERY_CASES } from './query-cases.ts';
import { REST_CASES } from './rest-cases.ts';
import { SUBSCRIPTION_CASES } from './subscription-cases.ts';

const CASES = [...QUERY_CASES, ...MUTATION_CASES, ...REST_CASES, ...OPERATOR_CASES, ...SUBSCRIPTION_CASES];

let srv: TestServer;
// The routes come from the server's own OpenAPI document; no data is needed for that.
beforeAll(async () => {
  srv = await startTestServer({ seed: false });
});
afterAll(() => srv?.close());

const COMPLETENESS =
  'covers every root Query, Mutation and Subscription field of schema.graphql ' +
  'and every REST route of the OpenAPI document';
type OpenApi = { paths: Record<string, Record<string, unknown>> };

describe('tenant isolation matrix', () => {
  it(COMPLETENESS, async () => {
    const sdl = parse(readFileSync(new URL('../../../schema.graphql', import.meta.url), 'utf8'));
    const isRoot = (name: string) => name === 'Query' || name === 'Mutation' || name === 'Subscription';
    const rootFields = sdl.definitions.flatMap((d) =>
      (d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.OBJECT_TYPE_EXTENSION) && isRoot(d.name.value)
        ? (d.fields ?? []).map((f) => f.name.value)
        : [],
    );
    expect(rootFields.length).toBeGreaterThan(30);
    const openapi = (await (await fetch(`${srv.url}/openapi.json`)).json()) as OpenApi;
    const routes = Object.entries(openapi.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(routes.length).toBeGreaterThanOrEqual(7);
    const covered = new Set(CASES.map((c) => c.op));
    const missing = [...rootFields, ...routes].filter((op) => !covered.has(op));
    const where = 'test/security/tenant-isolation/*-cases.ts';
    expect(missing, `operations without an isolation case in ${where}: ${missing.join(', ')}`).toEqual([]);
    // And nothing in the tables names an operation that no longer exists.
    const known = new Set([...rootFields, ...routes]);
    expect([...covered].filter((op) => !known.has(op))).toEqual([]);
  });
});
