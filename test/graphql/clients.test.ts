// The README's "Clients" section, run: Apollo Client (HTTP, and subscriptions over graphql-ws), urql and
// graphql-request, each with its defaults, against a real server with a JWT from a real login. urql's default
// GET (and graphql-request's, asked for) carry Authorization and no preflight header: CSRF prevention lets them
// through, and still refuses a GET that carries none of its headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { Client as UrqlClient, cacheExchange, fetchExchange } from '@urql/core';
import { GraphQLClient } from 'graphql-request';
import { createClient } from 'graphql-ws';
import { firstValueFrom, take, toArray } from 'rxjs';
import WebSocket from 'ws';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { untilSubscribed } from '../helpers/live.ts';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = await s.loginAs('player');
});
afterAll(async () => s?.close());

const ME = '{ me { name company { name } } }';
const ME_DATA = { me: { name: expect.any(String), company: { name: 'Demo Corp' } } };

/** fetch as is, noting each request's method: the clients' own choice of GET or POST is what is under test. */
function recordingFetch() {
  const methods: string[] = [];
  const wrapped: typeof fetch = (input, init) => {
    methods.push(init?.method ?? (input instanceof Request ? input.method : 'GET'));
    return fetch(input, init);
  };
  return { fetch: wrapped, methods };
}

describe('Apollo Client 4', () => {
  it('logs in with the tenant header, then queries with the token over HTTP', async () => {
    const login = new ApolloClient({
      link: new HttpLink({ uri: `${s.url}/graphql`, headers: { 'x-app-path': 'demo' } }),
      cache: new InMemoryCache(),
    });
    const { data: logged } = await login.mutate<{ login: { token: string } }>({
      mutation: gql`
        mutation Login($email: String!, $password: String!) {
          login(email: $email, password: $password) {
            token
          }
        }
      `,
      variables: { email: 'player1@demo.test', password: 'Prode-demo-2026!' },
    });
    const client = new ApolloClient({
      link: new HttpLink({ uri: `${s.url}/graphql`, headers: { authorization: `Bearer ${logged!.login.token}` } }),
      cache: new InMemoryCache(),
    });
    const { data } = await client.query({ query: gql(ME) });
    expect(data).toMatchObject(ME_DATA);
  });

  it('subscribes over graphql-ws (GraphQLWsLink) and receives a match result', async () => {
    const wsClient = createClient({
      url: `${s.url.replace(/^http/, 'ws')}/graphql`,
      connectionParams: { authorization: `Bearer ${token}` },
      webSocketImpl: WebSocket,
    });
    const client = new ApolloClient({
      // Subscriptions over the socket, everything else over HTTP.
      link: ApolloLink.split(
        ({ operationType }) => operationType === 'subscription',
        new GraphQLWsLink(wsClient),
        new HttpLink({ uri: `${s.url}/graphql`, headers: { authorization: `Bearer ${token}` } }),
      ),
      cache: new InMemoryCache(),
    });
    try {
      const matchId = s.demo.matches.final;
      const first = firstValueFrom(
        client
          .subscribe<{ matchUpdated: { match: { id: number; homeTeamGoals: number } } }>({
            query: gql`
              subscription Match($t: Int!) {
                matchUpdated(tournamentId: $t) {
                  match {
                    id
                    homeTeamGoals
                  }
                }
              }
            `,
            variables: { t: s.demo.tournament },
          })
          .pipe(take(1), toArray()),
      );
      // The result is set once the server holds the subscription.
      await untilSubscribed(s.url, 1);
      await s.kickOff(matchId);
      const manager = await s.loginAs('manager');
      const set = await s.gql(
        'mutation($i: SetMatchResultInput!) { setMatchResult(input: $i) { id } }',
        { i: { matchId, status: 'IN_PLAY', homeTeamGoals: 2, awayTeamGoals: 0, elapsedTime: 10 } },
        bearer(manager),
      );
      expect(set.errors).toBeUndefined();
      const [event] = await first;
      expect(event.data?.matchUpdated.match).toMatchObject({ id: matchId, homeTeamGoals: 2 });
    } finally {
      await wsClient.dispose();
    }
  });
});

describe('urql', () => {
  it('its default client sends a GET within the URL limit, with Authorization: CSRF prevention passes it', async () => {
    const recorded = recordingFetch();
    const client = new UrqlClient({
      url: `${s.url}/graphql`,
      exchanges: [cacheExchange, fetchExchange],
      fetch: recorded.fetch,
      fetchOptions: () => ({ headers: { authorization: `Bearer ${token}` } }),
    });
    const result = await client.query(ME, {}).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data).toMatchObject(ME_DATA);
    expect(recorded.methods).toEqual(['GET']);
  });
});

describe('graphql-request', () => {
  it('logs in with the tenant header, then queries by POST (its default) and by GET, with Authorization', async () => {
    const url = `${s.url}/graphql`;
    const { login } = await new GraphQLClient(url, { headers: { 'x-app-path': 'demo' } }).request<{
      login: { token: string };
    }>('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', {
      e: 'player1@demo.test',
      p: 'Prode-demo-2026!',
    });
    for (const method of ['POST', 'GET'] as const) {
      const recorded = recordingFetch();
      const client = new GraphQLClient(url, {
        headers: { authorization: `Bearer ${login.token}` },
        fetch: recorded.fetch,
        ...(method === 'GET' ? { method } : {}),
      });
      expect(await client.request(ME)).toMatchObject(ME_DATA);
      expect(recorded.methods).toEqual([method]);
    }
  });
});

describe('CSRF prevention on GET', () => {
  const get = (headers: Record<string, string>) =>
    fetch(`${s.url}/graphql?${new URLSearchParams({ query: ME })}`, { headers });

  it('refuses a GET with none of its headers (Authorization, a tenant or a preflight header): 400, unrun', async () => {
    for (const headers of [{}, { authorization: '' }, { 'x-app-path': '' }, { accept: 'application/json' }] as Record<
      string,
      string
    >[]) {
      const res = await get(headers);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
      expect(body.errors[0].message).toMatch(/Cross-Site Request Forgery/);
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }
  });

  it('runs a public GET naming its company only, as urql sends one before sign-in', async () => {
    for (const headers of [
      { 'x-app-path': 'demo' },
      { 'x-app-company': 'demo' },
      { 'x-app-host': 'nowhere.test' },
    ] as Record<string, string>[]) {
      const res = await fetch(`${s.url}/graphql?${new URLSearchParams({ query: '{ __typename }' })}`, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(((await res.json()) as { data: unknown }).data).toEqual({ __typename: 'Query' });
    }
  });

  it('runs a GET with Authorization, as with apollo-require-preflight', async () => {
    for (const headers of [bearer(token), { 'apollo-require-preflight': '1', ...bearer(token) }]) {
      const res = await get(headers);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: unknown }).data).toMatchObject(ME_DATA);
    }
  });
});
