// `npm run bench:load -- [--seconds 60] [--connections 64] [--rounds 1] [--mix both|everyone-writes|matchday]
// [--rate REQUESTS_PER_SECOND]`: the mixed read/write load (bench/mixed-load.ts) on a fresh demo-seeded server,
// PostgreSQL when DATABASE_URL is set (each run in a database of its own beside it), else SQLite, for each mix once
// with the response cache on (as shipped) and once with it off (RESPONSE_CACHE_MB=0), alternating for --rounds
// rounds; as fast as the server responds, or at --rate requests per second in all, evenly spaced. Writes bench/LOAD.md
// (bench/LOAD-postgresql.md): per mix, the cache-on run's figures, its hit rate, and each kind of request's latency
// with the cache on and off (medians over the rounds, and each round's p99 ratio).
import os from 'node:os';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { emptyTarget } from '../test/helpers/db.ts';
import { MAX_NAMED_STATEMENTS } from '../src/engine/db/statement-names.ts';
import { startLoadTarget } from './load-target.ts';
import { LOAD_MIXES, mixedLoad, percentile, type LoadMix, type LoadResult } from './mixed-load.ts';

// The bound the reliability issue asks us to state: RSS after the load minus RSS after the warm-up.
export const RSS_GROWTH_BOUND_MIB = 150;

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '1' },
    mix: { type: 'string', default: 'both' },
    rate: { type: 'string' },
  },
});
const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
const rounds = Number(values.rounds);
if (values.mix !== 'both' && !LOAD_MIXES.includes(values.mix as LoadMix)) {
  console.error(`--mix: one of both, ${LOAD_MIXES.join(', ')} (got ${values.mix})`);
  process.exit(2);
}
const mixes = values.mix === 'both' ? LOAD_MIXES : [values.mix as LoadMix];
const rate = values.rate === undefined ? undefined : Number(values.rate);
if (rate !== undefined && !(rate > 0)) {
  console.error(`--rate: requests per second over all connections, above 0 (got ${values.rate})`);
  process.exit(2);
}

interface Run {
  r: LoadResult;
  hits: number;
  misses: number;
  discards: number;
  /** Responses computed again after a write made the cached one stale: the same as it, or changed. */
  recomputed: { same: number; changed: number };
  /** PostgreSQL: statement texts the server had prepared by the end (0 on SQLite). */
  prepared: number;
}

async function once(mix: LoadMix, cache: boolean): Promise<Run> {
  // Every run starts from the demo data as seeded: on PostgreSQL a throwaway database beside DATABASE_URL's (runs
  // leave comments and predictions behind, and a post read by the next would be larger), on SQLite a new file.
  const fresh = process.env.DATABASE_URL ? await emptyTarget('postgresql') : undefined;
  const url = fresh?.target.provider === 'postgresql' ? fresh.target.url : undefined;
  const target = await startLoadTarget(url, cache ? {} : { RESPONSE_CACHE_MB: '0' }).catch(async (error) => {
    await fresh?.drop();
    throw error;
  });
  try {
    const r = await mixedLoad(target, {
      seconds: Number(values.seconds),
      connections: Number(values.connections),
      warmupSeconds: 5,
      mix,
      rate,
    });
    // How the response cache fared with writes going on all along (warm-up included).
    const metrics = await (await fetch(`${target.url}/metrics`)).text();
    const counter = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(metrics)?.[1] ?? 0);
    const hits = counter('prode_response_cache_lookups_total\\{result="hit"\\}');
    const misses = counter('prode_response_cache_lookups_total\\{result="miss"\\}');
    const discards = counter('prode_response_cache_discards_total');
    const recomputed = {
      same: counter('prode_response_cache_recomputed_total\\{answer="same"\\}'),
      changed: counter('prode_response_cache_recomputed_total\\{answer="changed"\\}'),
    };
    return { r, hits, misses, discards, recomputed, prepared: counter('prode_db_prepared_statements') };
  } finally {
    await target.stop();
    await fresh?.drop();
  }
}

// Alternating: each round runs every mix with the cache on and off, each on a fresh server; odd rounds run off first,
// so neither variant always has the machine's first or second turn.
const on = new Map<LoadMix, Run[]>(mixes.map((m) => [m, []]));
const off = new Map<LoadMix, Run[]>(mixes.map((m) => [m, []]));
for (let i = 0; i < rounds; i++) {
  for (const mix of mixes) {
    for (const cache of i % 2 ? [false, true] : [true, false])
      (cache ? on : off).get(mix)!.push(await once(mix, cache));
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** A kind's latency over all rounds of one variant. */
const latencies = (runs: Run[], kind: string) => runs.flatMap((x) => x.r.msByKind[kind] ?? []);
const rps = (runs: Run[]) => median(runs.map((x) => x.r.rps)).toFixed(1);

const DESCRIPTION: Record<LoadMix, (r: LoadResult) => string> = {
  'everyone-writes': (r) =>
    `Every one of the ${r.connections} connections walks the whole cycle, writes included: four requests in ten write.`,
  matchday: (r) =>
    `${r.writerConnections} of the ${r.connections} connections, as ${r.writerPlayers} of the ${r.players} players, ` +
    `walk the whole cycle; the other ${r.connections - r.writerConnections}, as the other ` +
    `${r.players - r.writerPlayers} players, walk its six reads only (people ` +
    `predicting and commenting while others read).`,
};

let failed = false;
const sections = mixes.map((mix) => {
  const [onRuns, offRuns] = [on.get(mix)!, off.get(mix)!];
  const first = onRuns[0].r;
  const growth = first.rssAfterMiB - first.rssBeforeMiB;
  const withinBound = growth <= RSS_GROWTH_BOUND_MIB;
  const errors = [...onRuns, ...offRuns].reduce((n, x) => n + x.r.httpErrors + x.r.graphqlErrors, 0);
  if (errors > 0 || !withinBound) failed = true;
  const hits = onRuns.reduce((n, x) => n + x.hits, 0);
  const misses = onRuns.reduce((n, x) => n + x.misses, 0);
  const discards = onRuns.reduce((n, x) => n + x.discards, 0);
  const [same, changed] = [
    onRuns.reduce((n, x) => n + x.recomputed.same, 0),
    onRuns.reduce((n, x) => n + x.recomputed.changed, 0),
  ];
  const most = (runs: Run[]) => Math.max(...runs.map((x) => x.prepared));
  const prepared = most(offRuns)
    ? `| Statement texts prepared at the end, cache on / off (most of any round; at most ` +
      `${MAX_NAMED_STATEMENTS}) | ${most(onRuns)} / ${most(offRuns)} |\n`
    : '';
  const hitRate = ((hits / (hits + misses)) * 100).toFixed(0);
  const ceiling = ((1 - changed / (hits + misses)) * 100).toFixed(0);
  const rss = [first.rssBeforeMiB, first.rssAfterMiB, first.rssPeakMiB].map((m) => m.toFixed(0)).join(' / ');
  const kinds = Object.keys(first.byKind).sort((a, b) => Number(a.startsWith('write')) - Number(b.startsWith('write')));
  const rows = kinds.map((k) => {
    const [a, b] = [latencies(onRuns, k), latencies(offRuns, k)];
    const ratio = median(a) / median(b);
    const cell = (xs: number[]) => `${median(xs).toFixed(0)} / ${percentile(xs, 0.99).toFixed(0)}`;
    // One p99 ratio per round (the round's on against the same round's off), and their median: on a shared machine
    // a run's tail moves with whatever else ran then, and pooling the rounds lets the worst one set the p99.
    const p99 = (run: Run) => percentile(run.r.msByKind[k] ?? [], 0.99);
    const perRound = onRuns.map((run, i) => p99(run) / p99(offRuns[i]));
    const byRound =
      perRound.length > 1
        ? `${perRound.map((x) => x.toFixed(2)).join(', ')}: ${median(perRound).toFixed(2)}`
        : perRound[0].toFixed(2);
    return `| ${k} | ${cell(a)} | ${cell(b)} | ${ratio.toFixed(2)} | ${byRound} |`;
  });
  return `## Mix \`${mix}\`

${DESCRIPTION[mix](first)}

| Figure | Value |
|---|---|
| Throughput, cache on / off (median of rounds) | ${rps(onRuns)} / ${rps(offRuns)} req/s |
| Latency p50 / p99, cache on (first round) | ${first.p50} ms / ${first.p99} ms |
| HTTP errors and GraphQL responses with errors (all runs) | ${errors} |
| RSS after warm-up / after load / peak (cache on, first round) | ${rss} MiB |
| RSS growth (bound ${RSS_GROWTH_BOUND_MIB} MiB) | ${growth.toFixed(0)} MiB: ${withinBound ? 'within' : 'OVER'} |
| Response cache: hits / misses of cacheable reads (cache on, all rounds) | ${hits} / ${misses} (${hitRate}% hits) |
| Responses not cached: a table they read was written meanwhile (cache on, all rounds) | ${discards} |
| Responses cached in place of a stale one: unchanged / changed (cache on, all rounds) | ${same} / ${changed} |
| Hits at most for a never-stale cache of the last response per key (a read of a changed one must miss) | ${ceiling}% |
${prepared}
Latency by kind of request, ms (median / p99 over every request of the rounds; then each round's p99 on / off and,
over several rounds, their median):

| Request | Cache on | Cache off | Median on / off | p99 on / off by round |
|---|---|---|---|---|
${rows.join('\n')}

Requests sent per kind (cache on, first round): ${kinds.map((k) => `${k} ${first.byKind[k]}`).join('; ')}.
`;
});

const first = on.get(mixes[0])![0].r;
const args =
  `--seconds ${first.seconds} --connections ${values.connections} --rounds ${rounds} --mix ${values.mix}` +
  (rate ? ` --rate ${rate}` : '');
const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${database}`;
const md = `# Mixed load (reads and writes)

Generated by \`npm run bench:load -- ${args}\` on ${new Date().toISOString()}.
${machine}, demo data, server and load generator on one machine, ${first.seconds} s per run, ${first.connections}
connections, ${rounds} round(s), ${
  rate
    ? `at ${rate} requests per second in all, evenly spaced whatever the responses' speed (each connection waits for ` +
      'its response)'
    : 'each connection sending its next request as soon as the last has its response'
}.
The cycle: GET /posts/:id, GET /tournaments/me, GraphQL me + company, upsertPrediction, GET /posts/:postId/comments,
createComment, GraphQL myTournaments, a ranking page + me, deleteComment (the one it created) and (as the admin)
PATCH /invitations/:id. Every comment is on the same post. A 5 s warm-up runs first. Each round runs each mix on the
server as shipped (response cache on) and with RESPONSE_CACHE_MB=0 (every request executed), each on a fresh server,
the cache-on run first in odd rounds and second in even ones.

${sections.join('\n')}`;
writeFileSync(`bench/LOAD${database === 'PostgreSQL' ? '-postgresql' : ''}.md`, md);
console.log(md);
process.exit(failed ? 1 : 0);
