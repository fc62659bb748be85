// `npm run bench:engine -- --part <p> [--alternate 5] [--store sqlite|postgresql]`: each engine part measured on and
// off side by side. Two of our servers are up at once on the generated dataset, the full engine and the full engine
// with ENGINE_OFF=<p> (`--part all`: ENGINE=plain), their cells alternating (bench/cells.ts, alternateCells); the
// ratio of the medians and the spread of the per-round ratios go to bench/ENGINE.json and bench/ENGINE.md.
// `--part each` runs every part. Arguments and the workload per part: bench/engine-args.ts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { DeepTournamentsMineDocument } from '../src/graphql/generated/operations.ts';
import {
  alternateCells,
  benchDatabase,
  gql,
  loginHeaders,
  ourCell,
  ratioOf,
  sideOf,
  startServer,
  statementsOf,
  stop,
  type Workload,
} from './cells.ts';
import { commandOf, parseEngineArgs, PLANS, type EngineBenchArgs, type EngineWorkload } from './engine-args.ts';
import { render, verdictOf, type Result } from './engine-report.ts';

const RESULTS = 'bench/ENGINE.json';
const REPORT = 'bench/ENGINE.md';

const WORKLOADS: Record<EngineWorkload, Workload> = {
  deep: { name: 'GraphQL deep tournaments', ...gql(DeepTournamentsMineDocument) },
  'deep-cached': { name: 'GraphQL deep tournaments, repeated', ...gql(DeepTournamentsMineDocument) },
  'companies-search': { name: 'GET /companies/search?take=10', path: '/companies/search?take=10' },
};

/** The two sides' environments: the part on (full) and off. */
function sidesOf(part: string): { on: Record<string, string>; off: Record<string, string> } {
  const plan = PLANS[part] ?? PLANS.jit!;
  // The response cache off on both sides unless it is what is measured: a cache hit would skip what the part does.
  const base = plan.cacheOn ? [] : ['response-cache'];
  const on = { ENGINE: 'full', ENGINE_OFF: base.join(',') };
  if (part === 'all') return { on, off: { ENGINE: 'plain', ENGINE_OFF: '' } };
  return { on, off: { ENGINE: 'full', ENGINE_OFF: [...base, part].join(',') } };
}

async function measure(part: string, args: EngineBenchArgs, databaseUrl: string): Promise<Result[]> {
  const plan = PLANS[part] ?? { replaces: part, workload: 'deep' };
  const workload = WORKLOADS[plan.workload];
  const sides = sidesOf(part);
  const timing = { duration: args.duration, warmup: args.warmup };
  const load0 = os.loadavg()[0]!;
  const on = await startServer(databaseUrl, sides.on);
  const off = await startServer(databaseUrl, sides.off);
  try {
    const onAuth = await loginHeaders(on.url);
    const offAuth = await loginHeaders(off.url);
    const onStatements = await statementsOf(on, onAuth, workload);
    const offStatements = await statementsOf(off, offAuth, workload);
    console.log(`${part}: on ENGINE_OFF=${sides.on.ENGINE_OFF || '(none)'}; off ${JSON.stringify(sides.off)}`);
    const rounds = await alternateCells(
      args.concurrencies,
      args.rounds,
      (c) => ourCell(on, onAuth, workload, 'on', c, onStatements, timing),
      (c) => ourCell(off, offAuth, workload, `off`, c, offStatements, timing),
    );
    const load1 = os.loadavg()[0]!;
    return args.concurrencies.map((concurrency) => {
      const at = rounds.filter((x) => x.concurrency === concurrency);
      const a = sideOf(at, (x) => x.a);
      const b = sideOf(at, (x) => x.b);
      const { ratio, min, max } = ratioOf(at);
      const result: Result = {
        part,
        store: args.store,
        concurrency,
        workload: workload.name,
        on: { median: a.rps, cells: a.cells, statements: onStatements, errors: a.errors },
        off: { median: b.rps, cells: b.cells, statements: offStatements, errors: b.errors },
        ratio,
        min,
        max,
        load: [load0, load1],
        at: new Date().toISOString(),
        node: process.version,
        command: commandOf(part, args),
      };
      console.log(
        `${part} c=${concurrency}: ${a.rps.toFixed(1)} on / ${b.rps.toFixed(1)} off req/s, ` +
          `${ratio.toFixed(2)}x (per round ${min.toFixed(2)}-${max.toFixed(2)}), ${verdictOf(result)}`,
      );
      return result;
    });
  } finally {
    await stop(on.child);
    await stop(off.child);
  }
}

let args: EngineBenchArgs;
try {
  args = parseEngineArgs(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const databaseUrl = await benchDatabase(args.scale, args.store === 'postgresql' ? process.env.DATABASE_URL : undefined);
let results: Result[] = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : [];
for (const part of args.parts) {
  const fresh = await measure(part, args, databaseUrl);
  const same = (r: Result) =>
    fresh.some((f) => f.part === r.part && f.store === r.store && f.concurrency === r.concurrency);
  results = [...results.filter((r) => !same(r)), ...fresh];
  // Written after each part, so a long `--part each` keeps what it measured if stopped.
  writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(REPORT, render(results));
}
console.log(`wrote ${RESULTS} and ${REPORT}`);
process.exit(0);
