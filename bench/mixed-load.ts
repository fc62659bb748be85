// A mixed load of reads and writes against a running server (real process, loopback), as many players at once,
// with autocannon: used by `npm run bench:load` (60 s) and by test/reliability/mixed-load.test.ts (short, in CI).
// Counts every answer that is not a 2xx or that carries GraphQL `errors`, and samples the server's RSS.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';

export interface LoadTarget {
  url: string;
  pid: number;
  /** x-app-path of the company the players belong to. */
  appPath: string;
  /** One token per player; connections take them in turn. */
  playerTokens: string[];
  adminToken: string;
  futureMatchIds: number[];
  tournamentId: number;
  postId: number;
  invitationId: number;
}

export interface LoadResult {
  seconds: number;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers, socket errors and timeouts. */
  httpErrors: number;
  /** 2xx answers whose GraphQL body carries `errors`. */
  graphqlErrors: number;
  rssBeforeMiB: number;
  rssAfterMiB: number;
  rssPeakMiB: number;
  byKind: Record<string, number>;
  /** Milliseconds from sending to the answer, per kind of request (each connection sends one at a time). */
  msByKind: Record<string, number[]>;
}

const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

interface Step {
  kind: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: (n: number, context: Record<string, unknown>) => string;
  admin?: boolean;
  /** Reads what a write answered (e.g. the id to delete next), per connection. */
  remember?: (body: string, context: Record<string, unknown>) => void;
}

function steps(t: LoadTarget): Step[] {
  const gql =
    (query: string, variables: (n: number, context: Record<string, unknown>) => object = () => ({})) =>
    (n: number, context: Record<string, unknown>) =>
      JSON.stringify({ query, variables: variables(n, context) });
  return [
    { kind: 'read: GET /posts/:id', method: 'GET', path: `/posts/${t.postId}` },
    { kind: 'read: GET /tournaments/me', method: 'GET', path: '/tournaments/me' },
    {
      kind: 'read: GraphQL me + company',
      method: 'POST',
      path: '/graphql',
      body: gql('{ me { id email areaLevel1 { name } } company { name } }'),
    },
    {
      kind: 'write: upsertPrediction',
      method: 'POST',
      path: '/graphql',
      body: gql('mutation P($i: UpsertPredictionInput!) { upsertPrediction(input: $i) { id homeTeamGoals } }', (n) => ({
        i: {
          matchId: t.futureMatchIds[n % t.futureMatchIds.length],
          homeTeamGoals: n % 5,
          awayTeamGoals: (n >> 1) % 4,
        },
      })),
    },
    { kind: 'read: GET /posts/:postId/comments', method: 'GET', path: `/posts/${t.postId}/comments` },
    // Each comment is deleted again two steps later, so the post's comment list does not grow with the run.
    {
      kind: 'write: createComment',
      method: 'POST',
      path: '/graphql',
      body: gql('mutation C($p: Int!, $x: String!) { createComment(postId: $p, text: $x) { id } }', (n) => ({
        p: t.postId,
        x: `load comment ${n}`,
      })),
      remember: (body, context) =>
        (context.commentId = (JSON.parse(body) as { data?: { createComment?: { id: number } } }).data?.createComment
          ?.id),
    },
    {
      kind: 'read: GraphQL myTournaments',
      method: 'POST',
      path: '/graphql',
      body: gql('{ myTournaments { id name rounds { id name } } }'),
    },
    {
      kind: 'read: GraphQL ranking page + me',
      method: 'POST',
      path: '/graphql',
      body: gql(
        'query R($t: Int!) { ranking(tournamentId: $t, take: 20) { total entries { position points user { id name } ' +
          '} me { position points } } }',
        () => ({ t: t.tournamentId }),
      ),
    },
    {
      kind: 'write: deleteComment',
      method: 'POST',
      path: '/graphql',
      body: gql('mutation D($id: Int!) { deleteComment(id: $id) }', (_n, context) => ({ id: context.commentId })),
    },
    {
      kind: 'write: PATCH /invitations/:id',
      method: 'PATCH',
      path: `/invitations/${t.invitationId}`,
      body: (n) => JSON.stringify({ name: `Load Invitee ${n % 7}` }),
      admin: true,
    },
  ];
}

async function run(
  t: LoadTarget,
  seconds: number,
  connections: number,
  tally?: Record<string, number>,
  ms?: Record<string, number[]>,
) {
  let nextPlayer = 0;
  let n = 0;
  let graphqlErrors = 0;
  const list = steps(t);
  const requests = list.map((s) => ({
    method: s.method,
    path: s.path,
    setupRequest: (req: Record<string, unknown>, context: Record<string, unknown>) => {
      context.player ??= t.playerTokens[nextPlayer++ % t.playerTokens.length];
      n++;
      req.headers = {
        'content-type': 'application/json',
        'x-app-path': t.appPath,
        authorization: `Bearer ${s.admin ? t.adminToken : (context.player as string)}`,
        // The post routes take the tenant from x-app-company; players may not send it, so they act on their own.
      };
      if (s.body) req.body = s.body(n, context);
      if (tally) tally[s.kind] = (tally[s.kind] ?? 0) + 1;
      context.sentAt = performance.now();
      return req;
    },
    onResponse: (status: number, body: string, context: Record<string, unknown>) => {
      if (ms) (ms[s.kind] ??= []).push(performance.now() - (context.sentAt as number));
      if (status === 200) s.remember?.(body, context);
      if (status >= 200 && status < 300 && s.path === '/graphql' && body.includes('"errors"')) {
        graphqlErrors++;
        if (graphqlErrors <= 3) console.error(`GraphQL error under load (${s.kind}): ${body.slice(0, 300)}`);
      }
      if (status >= 300) console.error(`${status} under load (${s.kind}): ${body.slice(0, 300)}`);
    },
  }));
  const result = await autocannon({
    url: t.url,
    connections,
    duration: seconds,
    timeout: 30,
    requests: requests as never,
  });
  return { result, graphqlErrors };
}

export async function mixedLoad(
  t: LoadTarget,
  options: { seconds: number; connections: number; warmupSeconds: number },
): Promise<LoadResult> {
  // Warm up first (JIT, caches, connection pools), so growth measured afterwards is what the load keeps.
  if (options.warmupSeconds > 0) await run(t, options.warmupSeconds, options.connections);
  const rssBeforeMiB = rssMiB(t.pid);
  let rssPeakMiB = rssBeforeMiB;
  const sampler = setInterval(() => (rssPeakMiB = Math.max(rssPeakMiB, rssMiB(t.pid))), 250);
  const byKind: Record<string, number> = {};
  const msByKind: Record<string, number[]> = {};
  const { result, graphqlErrors } = await run(t, options.seconds, options.connections, byKind, msByKind);
  clearInterval(sampler);
  return {
    seconds: options.seconds,
    connections: options.connections,
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    httpErrors: result.errors + result.non2xx + result.timeouts,
    graphqlErrors,
    rssBeforeMiB,
    rssAfterMiB: rssMiB(t.pid),
    rssPeakMiB,
    byKind,
    msByKind,
  };
}
