// A mixed load of reads and writes against a running server (real process, loopback), as many players at once,
// with autocannon (as fast as the server responds) or a paced driver of its own (at a rate): used by
// `npm run bench:load` (60 s) and by test/reliability/mixed-load.test.ts (short, in CI).
// Counts every response that is not a 2xx or that carries GraphQL `errors`, and samples the server's RSS.
// Two mixes (LoadMix): `everyone-writes`, every connection walking one cycle of six reads and four writes, and
// `matchday`, a quarter of the connections (a quarter of the players) walking that cycle while the others, the
// rest of the players, only read.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import http from 'node:http';

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
  /** Non-2xx responses, socket errors and timeouts. */
  httpErrors: number;
  /** 2xx responses whose GraphQL body carries `errors`. */
  graphqlErrors: number;
  rssBeforeMiB: number;
  rssAfterMiB: number;
  rssPeakMiB: number;
  byKind: Record<string, number>;
  /** Milliseconds from sending to the response, per kind of request (each connection sends one at a time). */
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
  /** Reads what a write returned (e.g. the id to delete next), per connection. */
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
  /** Requests per second the group sends in all; undefined: as fast as the server responds. */
  rate?: number;
}

function groups(t: LoadTarget, mix: LoadMix, connections: number, rate: number | undefined): Group[] {
  // Each group sends its share of the rate, in proportion to its connections.
  const atRate = (g: Group): Group =>
    rate ? { ...g, rate: Math.max(1, Math.round((rate * g.connections) / connections)) } : g;
  return unpaced(t, mix, connections).map(atRate);
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

/** A group's requests as sent (headers, body) and their responses as read (tallies, errors), whichever driver sends. */
function requestsOf(
  t: LoadTarget,
  group: Group,
  counts: { n: number; graphqlErrors: number; nextPlayer: number },
  tally?: Record<string, number>,
  ms?: Record<string, number[]>,
) {
  return group.steps.map((s) => ({
    method: s.method,
    path: s.path,
    setupRequest: (req: Record<string, unknown>, context: Record<string, unknown>) => {
      context.player ??= group.playerTokens[counts.nextPlayer++ % group.playerTokens.length];
      counts.n++;
      req.headers = {
        'content-type': 'application/json',
        'x-app-path': t.appPath,
        authorization: `Bearer ${s.admin ? t.adminToken : (context.player as string)}`,
        // The post routes take the tenant from x-app-company; players may not send it, so they act on their own.
      };
      if (s.body) req.body = s.body(counts.n, context);
      if (tally) tally[s.kind] = (tally[s.kind] ?? 0) + 1;
      context.sentAt = performance.now();
      return req;
    },
    onResponse: (status: number, body: string, context: Record<string, unknown>) => {
      if (ms) (ms[s.kind] ??= []).push(performance.now() - (context.sentAt as number));
      if (status === 200) s.remember?.(body, context);
      if (status >= 200 && status < 300 && s.path === '/graphql' && body.includes('"errors"')) {
        counts.graphqlErrors++;
        if (counts.graphqlErrors <= 3) console.error(`GraphQL error under load (${s.kind}): ${body.slice(0, 300)}`);
      }
      if (status >= 300) console.error(`${status} under load (${s.kind}): ${body.slice(0, 300)}`);
    },
  }));
}

interface GroupRun {
  requests: number;
  rps: number;
  /** Non-2xx responses, socket errors and timeouts. */
  httpErrors: number;
  graphqlErrors: number;
}

async function run(
  t: LoadTarget,
  seconds: number,
  group: Group,
  tally?: Record<string, number>,
  ms?: Record<string, number[]>,
): Promise<GroupRun> {
  const counts = { n: 0, graphqlErrors: 0, nextPlayer: 0 };
  const requests = requestsOf(t, group, counts, tally, ms);
  if (group.rate) return paced(t, seconds, group.connections, group.rate, requests, counts);
  // Each connection sends its next request as soon as the last one has its response.
  const result = await autocannon({
    url: t.url,
    connections: group.connections,
    duration: seconds,
    timeout: 30,
    requests: requests as never,
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    httpErrors: result.errors + result.non2xx + result.timeouts,
    graphqlErrors: counts.graphqlErrors,
  };
}

/**
 * At a rate: the group's sends are spaced evenly, 1/rate apart, the connections taking them in turn (connection i
 * sends at i/rate, then every connections/rate), as people do not click faster because the server responds sooner,
 * nor all at the same moment. A connection still waits for its response: if that comes after its next turn, it sends
 * at once. Its first few turns are idle (below), so a run sends a little less than the rate (at 150 req/s over 64
 * connections, about 290 requests fewer). autocannon's `overallRate` instead lets every connection send its quota
 * back to back at the start of each second, the connections' seconds aligned: bursts of the whole rate at once.
 * Latencies are timed from the actual send.
 */
async function paced(
  t: LoadTarget,
  seconds: number,
  connections: number,
  rate: number,
  requests: ReturnType<typeof requestsOf>,
  counts: { graphqlErrors: number },
): Promise<GroupRun> {
  const url = new URL(t.url);
  const start = performance.now();
  const end = start + seconds * 1000;
  let sent = 0;
  let httpErrors = 0;
  const connection = async (i: number) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const context: Record<string, unknown> = {};
    try {
      // Connection i takes its first turn at turn i mod the cycle's length, so at any moment the connections are
      // spread over the cycle's steps. Starting together, they would walk it in step (every read of a kind at once,
      // then every write of a kind at once), and the reads between two phases of writes would find the responses that
      // the first of them computed and cached.
      const phase = i % requests.length;
      for (let turn = phase; ; turn++) {
        const at = start + ((i + turn * connections) * 1000) / rate;
        if (at >= end) return;
        const wait = at - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const step = requests[(turn - phase) % requests.length];
        const req = step.setupRequest({}, context) as { headers: Record<string, string>; body?: string };
        sent++;
        const response = await send(url, agent, step.method, step.path, req.headers, req.body);
        if (response === null) httpErrors++;
        else {
          if (response.status >= 300) httpErrors++;
          step.onResponse(response.status, response.body, context);
        }
      }
    } finally {
      agent.destroy();
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, i) => connection(i)));
  return { requests: sent, rps: sent / seconds, httpErrors, graphqlErrors: counts.graphqlErrors };
}

/** One request on the connection's socket; null on a socket error or after 30 s. */
function send(
  url: URL,
  agent: http.Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; body: string } | null> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method, path, agent, headers, timeout: 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => resolve(null));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end(body);
  });
}

/** The groups of a mix run at once, each its own driver; their figures are summed. */
async function runMix(
  t: LoadTarget,
  seconds: number,
  mixGroups: Group[],
  tally?: Record<string, number>,
  ms?: Record<string, number[]>,
) {
  const runs = await Promise.all(mixGroups.map((g) => run(t, seconds, g, tally, ms)));
  const sum = (f: (r: GroupRun) => number) => runs.reduce((n, r) => n + f(r), 0);
  return {
    requests: sum((r) => r.requests),
    rps: sum((r) => r.rps),
    httpErrors: sum((r) => r.httpErrors),
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
    /** Requests per second over all connections; none: as fast as the server responds. */
    rate?: number;
  },
): Promise<LoadResult> {
  const mix = options.mix ?? 'everyone-writes';
  const mixGroups = groups(t, mix, options.connections, options.rate);
  // Warm up first (JIT, caches, connection pools), so growth measured afterwards is what the load holds on to.
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
