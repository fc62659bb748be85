// The command line of `npm run bench:engine` and what each engine part is measured on. No side effects, so a test
// can check that a wrong part is refused before any server starts.
import { parseArgs } from 'node:util';
import { ENGINE_PARTS } from '../src/engine/mode.ts';

/** The workloads a part can be measured on (bench/engine.ts builds each). */
export type EngineWorkload = 'deep' | 'deep-cached' | 'companies-search';

export interface PartPlan {
  /** What the part replaces, for bench/ENGINE.md. */
  replaces: string;
  workload: EngineWorkload;
  /** Whether the response cache is on for both sides (else both run with it off, so every request executes). */
  cacheOn?: boolean;
  postgresqlOnly?: boolean;
  /** Printed under the table: what the figure does and does not say. */
  note?: string;
}

/** Every ENGINE_OFF name has a plan: a name this table does not list is measured on the deep query. */
export const PLANS: Record<string, PartPlan> = {
  jit: { replaces: 'graphql-js `execute`', workload: 'deep', note: 'Off, the shared subtrees are off too.' },
  'shared-subtrees': {
    replaces: "graphql-js's completion of a repeated object",
    workload: 'companies-search',
    note: 'Measured where objects repeat most: each company of the page carries the same tournaments and teams.',
  },
  'shared-json': {
    replaces: '`JSON.stringify` of responses and REST bodies',
    workload: 'companies-search',
    note: 'Off, the shared subtrees are off too.',
  },
  'lean-resolvers': { replaces: "TypeGraphQL's resolver handler", workload: 'deep' },
  'sql-loaders': {
    replaces: "Prisma's `findMany`, `groupBy` and `findFirst` for loader and auth rows",
    workload: 'deep',
    note: 'Off, the row reader is off too: it only sends this SQL.',
  },
  'row-reader': { replaces: "Prisma's `$queryRaw` pipeline for loader and auth rows", workload: 'deep' },
  'table-versions': {
    replaces: 'nothing: the versions the response cache trusts',
    workload: 'deep-cached',
    cacheOn: true,
    note:
      "Off, the response cache is off too, so its figure is the cache's; with the cache off on both sides the " +
      'versions are not read at all, and only the tracking of transactions (writes) would remain to measure.',
  },
  'prepared-statements': {
    replaces: 'unnamed statements, parsed and planned each time',
    workload: 'deep',
    postgresqlOnly: true,
  },
  'response-cache': {
    replaces: 'nothing: whole responses computed again',
    workload: 'deep-cached',
    cacheOn: true,
    note: 'Its best case, one request repeated; under writes see `npm run bench:load`.',
  },
  runtime: {
    replaces: "Node's defaults (async_hooks on Node 22, malloc arenas, V8 heap)",
    workload: 'deep',
    note:
      'The bench starts each server as `node --import tsx src/server.ts`: on, runtime.ts replaces that process once ' +
      "with its flags; off, it keeps Node's defaults. A process started with the flags already (as the tests start " +
      'theirs) is not re-executed and gains nothing from the part.',
  },
  all: {
    replaces: 'every part (`ENGINE=plain` against full)',
    workload: 'deep',
    note: 'Both sides execute every request: full with its response cache off, plain has none.',
  },
};

export interface EngineBenchArgs {
  /** ENGINE_OFF names, or `all` (ENGINE=plain), in the order run. */
  parts: string[];
  rounds: number;
  store: 'sqlite' | 'postgresql';
  scale: number;
  duration: number;
  warmup: number;
  concurrencies: number[];
}

const USAGE =
  'npm run bench:engine -- --part <name[,name...]|all|each> [--alternate N] [--store sqlite|postgresql] ' +
  '[--scale 1] [--duration 3] [--warmup 1] [--concurrency 16]';

/**
 * Reads `npm run bench:engine`'s arguments; throws with a message naming the accepted values. `known` is every
 * name ENGINE_OFF accepts (src/engine/mode.ts), so a part added there is measurable here.
 */
export function parseEngineArgs(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  known: readonly string[] = ENGINE_PARTS,
): EngineBenchArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      part: { type: 'string' },
      alternate: { type: 'string', default: '5' },
      store: { type: 'string', default: 'sqlite' },
      scale: { type: 'string', default: '1' },
      duration: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '1' },
      concurrency: { type: 'string', default: '16' },
    },
  });
  if (!values.part) throw new Error(`--part is required: ${USAGE}`);
  const store = values.store;
  if (store !== 'sqlite' && store !== 'postgresql')
    throw new Error(`--store takes sqlite or postgresql, not "${store}"`);
  if (store === 'postgresql' && !env.DATABASE_URL)
    throw new Error('--store postgresql needs DATABASE_URL (for a throwaway cluster: source .ci/pg.sh && pg_start)');
  const each = [...known, 'all'].filter((p) => store === 'postgresql' || !PLANS[p]?.postgresqlOnly);
  const parts: string[] = [];
  for (const name of values.part.split(',').map((p) => p.trim())) {
    if (name === 'each') parts.push(...each);
    else if (name === 'all' || known.includes(name)) {
      if (store === 'sqlite' && PLANS[name]?.postgresqlOnly)
        throw new Error(`--part ${name} acts on PostgreSQL only: add --store postgresql`);
      parts.push(name);
    } else
      throw new Error(
        `--part "${name}" is not an engine part; ENGINE_OFF accepts ${known.join(', ')}; ` +
          `or all (ENGINE=plain), or each (every one of them, then all)`,
      );
  }
  const rounds = Number(values.alternate);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--alternate takes a number of rounds (1 or more)`);
  const number = (name: string, text: string, min: number) => {
    const n = Number(text);
    if (!(n >= min)) throw new Error(`--${name} takes a number (at least ${min}), not "${text}"`);
    return n;
  };
  const concurrencies = values.concurrency.split(',').map((c) => number('concurrency', c, 1));
  return {
    parts: [...new Set(parts)],
    rounds,
    store,
    scale: number('scale', values.scale, 0.01),
    duration: number('duration', values.duration, 1),
    warmup: number('warmup', values.warmup, 0),
    concurrencies,
  };
}

/** The command that reproduces one part's row. */
export function commandOf(part: string, a: EngineBenchArgs): string {
  const pg = a.store === 'postgresql' ? 'DATABASE_URL=… ' : '';
  return (
    `${pg}npm run bench:engine -- --part ${part} --alternate ${a.rounds} --store ${a.store} --scale ${a.scale} ` +
    `--duration ${a.duration} --warmup ${a.warmup} --concurrency ${a.concurrencies.join(',')}`
  );
}
