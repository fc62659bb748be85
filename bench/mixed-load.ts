// A mixed load of reads and writes against a running server (real process, loopback), as many players at once,
// with autocannon: used by `npm run bench:load` (60 s) and by test/reliability/mixed-load.test.ts (short, in CI).
// Counts every answer that is not a 2xx or that carries GraphQL `errors`, and samples the server's RSS.
// Two mixes (LoadMix): `everyone-writes`, every connection walking one cycle of six reads and four writes, and
// `matchday`, a quarter of the connections (a quarter of the players) walking that cycle while the others, the
// rest of the players, only read.
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

export type LoadMix = 'everyone-writes' | 'matchday';
export const LOAD_MIXES: readonly LoadMix[] = ['everyone-writes', 'matchday'];

export interface LoadResult {
  mix: LoadMix;
  seconds: number;
  connections: number;
  /** Connections that walk the cycle with writes (all of them in `everyone-writes`). */
  writerConnections: number;
  players: number;
  /** Players who write (all of them in `everyone-writes`). */
  writerPlayers: number;
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

/** One group of connections walking one cycle of steps as some of the players. */
interface Group {
  connections: number;
  steps: Step[];
  playerTokens: string[];
  /** Requests per second the group sends in all; undefined: as fast as answered. */
  rate?: number;
}

function groups(t: LoadTarget, mix: LoadMix, connections: number, rate: number | undefined): Group[] {
  // Each group sends its share of the rate, in proportion to its connections. autocannon opens no more connections
  // than a group's requests per second, so a slow rate means fewer connections: they are counted as opened.
  const paced = (g: Group): Group => {
    if (!rate) return g;
    const share = Math.max(1, Math.round((rate * g.connections) / connections));
    return { ...g, rate: share, connections: Math.min(g.connections, share) };
  };
  return unpaced(t, mix, connections).map(paced);
}

function unpaced(t: LoadTarget, mix: LoadMix, connections: number): Group[] {
  const all = steps(t);
  if (mix === 'everyone-writes') return [{ connections, steps: all, playerTokens: t.playerTokens }];
  // The players who predict and comment are not the ones who only read: a reader's own rows do not change.
  const writers = Math.max(1, Math.round(connections / 4));
  const writingPlayers = Math.max(1, Math.round(t.playerTokens.length / 4));
  return [
    { connections: writers, steps: all, playerTokens: t.playerTokens.slice(0, writingPlayers) },
    {
      connections: connections - writers,
      steps: all.filter((s) => s.kind.startsWith('read:')),
      playerTokens: t.playerTokens.slice(writingPlayers),
    },
  ].filter((g) => g.connections > 0);
}

async function run(
  t: LoadTarget,
  seconds: number,
  group: Group,
  tally?: Record<string, number>,
  ms?: Record<string, number[]>,
) {
  let nextPlayer = 0;
  let n = 0;
  let graphqlErrors = 0;
  const requests = group.steps.map((s) => ({
    method: s.method,
    path: s.path,
    setupRequest: (req: Record<string, unknown>, context: Record<string, unknown>) => {
      context.player ??= group.playerTokens[nextPlayer++ % group.playerTokens.length];
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
    connections: group.connections,
    // Paced, the group sends at most its rate whatever the answers' speed, as people do not click faster because the
    // server answers sooner (each connection still waits for its answer; latencies are timed from the actual send,
    // so at a rate the server cannot keep up with they would read low). Unpaced, each connection sends its next
    // request as soon as the last one is answered.
    ...(group.rate ? { overallRate: group.rate } : {}),
    duration: seconds,
    timeout: 30,
    requests: requests as never,
  });
  return { result, graphqlErrors };
}

/** The groups of a mix run at once, each its own autocannon; their figures are summed. */
async function runMix(
  t: LoadTarget,
  seconds: number,
  mixGroups: Group[],
  tally?: Record<string, number>,
  ms?: Record<string, number[]>,
) {
  const runs = await Promise.all(mixGroups.map((g) => run(t, seconds, g, tally, ms)));
  const sum = (f: (r: (typeof runs)[number]) => number) => runs.reduce((n, r) => n + f(r), 0);
  return {
    requests: sum((r) => r.result.requests.total),
    rps: sum((r) => r.result.requests.average),
    httpErrors: sum((r) => r.result.errors + r.result.non2xx + r.result.timeouts),
    graphqlErrors: sum((r) => r.graphqlErrors),
  };
}

export const percentile = (xs: number[], p: number) =>
  xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

export async function mixedLoad(
  t: LoadTarget,
  options: {
    seconds: number;
    connections: number;
    warmupSeconds: number;
    mix?: LoadMix;
    /** Requests per second over all connections; none: as fast as the server answers. */
    rate?: number;
  },
): Promise<LoadResult> {
  const mix = options.mix ?? 'everyone-writes';
  const mixGroups = groups(t, mix, options.connections, options.rate);
  // Warm up first (JIT, caches, connection pools), so growth measured afterwards is what the load keeps.
  if (options.warmupSeconds > 0) await runMix(t, options.warmupSeconds, mixGroups);
  const rssBeforeMiB = rssMiB(t.pid);
  let rssPeakMiB = rssBeforeMiB;
  const sampler = setInterval(() => (rssPeakMiB = Math.max(rssPeakMiB, rssMiB(t.pid))), 250);
  const byKind: Record<string, number> = {};
  const msByKind: Record<string, number[]> = {};
  const result = await runMix(t, options.seconds, mixGroups, byKind, msByKind);
  clearInterval(sampler);
  const all = Object.values(msByKind).flat();
  const writers = mixGroups[0];
  return {
    mix,
    seconds: options.seconds,
    connections: mixGroups.reduce((n, g) => n + g.connections, 0),
    writerConnections: writers.connections,
    players: t.playerTokens.length,
    writerPlayers: writers.playerTokens.length,
    requests: result.requests,
    rps: result.rps,
    p50: Math.round(percentile(all, 0.5)),
    p99: Math.round(percentile(all, 0.99)),
    httpErrors: result.httpErrors,
    graphqlErrors: result.graphqlErrors,
    rssBeforeMiB,
    rssAfterMiB: rssMiB(t.pid),
    rssPeakMiB,
    byKind,
    msByKind,
  };
}
