// Whole responses of read operations, keyed by document, variables, caller and tenant after the request's own checks,
// returned while the table versions of what they read hold.
// Why: docs/decisions/0006-response-cache-under-table-versions.md.
import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import type { GatewayExecutor } from '@apollo/server-gateway-interface';
import { Kind, type OperationDefinitionNode } from 'graphql';
import { AUTH_ROW_TABLES } from './auth-row-cache.ts';
import type { Database } from '../../db/client.ts';
import { Model } from '../../db/typed-sql.ts';
import type { TableVersions } from './table-versions.ts';
import { tableOfCounter } from './owner-buckets.ts';
import { currentSqlStats, uncounted } from '../../db/sql-stats.ts';
import { RequestReads, SharedReads } from './shared-reads.ts';
import type { Context } from '../../graphql/context.ts';
import { settledJson } from '../graphql/shared-subtrees/json.ts';

/**
 * Root fields whose responses depend only on the database's rows, the viewer, the tenant and kickoff times. A new
 * query joins only after checking that; invitationByJwt is left out because tokens expire on the clock, and
 * matches because its window starts at the request's clock unless `from` is given.
 */
const CACHEABLE_ROOT_FIELDS = new Set([
  'me',
  'company',
  'companiesSearch',
  'myTournaments',
  'tournament',
  'match',
  'ranking',
  'post',
  'postComments',
  'myNotifications',
  'myPredictions',
  'myInternalRankings',
  'myInternalRankingInvitations',
]);

/** Tables whose rows show or hide on the clock (prediction privacy at kickoff, graded trivia at a window's end). */
const CLOCK_TABLES = new Set<string>([
  Model.Prediction,
  Model.TriviaSolution,
  Model.TriviaAnswer,
  Model.BonusAnswer,
  Model.DreamFinalPick,
]);

interface Entry {
  /** The tables the response read (and the auth rows it was served on). */
  tables: string[];
  /** Their versions before the response was computed: it is served while they hold. */
  version: string;
  /** Epoch ms of the next kickoff or trivia window end after the response was computed: visibility changes then. */
  validUntil: number;
  data: Record<string, unknown>;
  bytes: number;
}

export interface CacheStats {
  hits: number;
  misses: number;
  /** Responses cached (the metric prode_response_cache_stores_total). */
  stores: number;
  /** Responses computed but not cached: a table they read was written while they were computed. */
  discards: number;
  /**
   * Responses cached in place of an older one under the same key that a write had made stale, by whether they differ
   * from it: `recomputedSame` counts misses a finer invalidation could have served from the cache, `recomputedChanged`
   * ones that no cache could have served without a stale response.
   */
  recomputedSame: number;
  recomputedChanged: number;
}

/** Misses in a row after which a key's responses are taken to change faster than they are read again. */
const CHURNING_AFTER_MISSES = 3;
/** Keys whose misses in a row are remembered (the most recent ones). */
const MAX_MISS_RUNS = 10_000;

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  /** Misses in a row per key since its last hit, most recent last. */
  private readonly missRuns = new Map<string, number>();
  /** Responses being checked and cached after they were sent, by key (cacheLater). */
  private readonly caching = new Map<string, Promise<void>>();
  /** Requests waiting to execute that look the key up again when a response under it is cached (nextCached). */
  private readonly cacheWaiters = new Map<string, Set<() => void>>();
  private bytes = 0;
  private horizon: { version: string; from: number; until: number } | null = null;
  readonly stats: CacheStats = { hits: 0, misses: 0, stores: 0, discards: 0, recomputedSame: 0, recomputedChanged: 0 };
  /**
   * What a miss's loaders read, for the next misses (src/engine/cache/shared-reads.ts): a row for every 2 KB of the
   * bound, held besides it.
   */
  readonly reads: SharedReads;

  constructor(private readonly maxBytes: number) {
    this.reads = new SharedReads(Math.floor(maxBytes / 2048));
  }

  get(key: string, versions: TableVersions, now: Date): Entry['data'] | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (now.getTime() >= entry.validUntil) {
      this.delete(key, entry);
      return null;
    }
    // Other versions are not always older: a request that read them earlier than the response's must not drop it.
    if (versions.of(entry.tables) !== entry.version) return null;
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.data;
  }

  set(key: string, entry: Entry): void {
    if (entry.bytes > this.maxBytes / 4) return; // one response never crowds out the rest
    const old = this.entries.get(key);
    if (old) {
      if (old.version !== entry.version) this.noteRecomputed(old, entry);
      this.delete(key, old);
    }
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(k, e);
    }
    this.stats.stores++;
    for (const wake of [...(this.cacheWaiters.get(key) ?? [])]) wake();
  }

  /** Settles true once a response is next cached under `key`, or false once `until` settles first. */
  nextCached(key: string, until: Promise<unknown>): Promise<boolean> {
    return new Promise((resolve) => {
      let waiters = this.cacheWaiters.get(key);
      if (!waiters) this.cacheWaiters.set(key, (waiters = new Set()));
      const settle = (cached: boolean) => {
        waiters.delete(wake);
        if (waiters.size === 0 && this.cacheWaiters.get(key) === waiters) this.cacheWaiters.delete(key);
        resolve(cached);
      };
      const wake = () => settle(true);
      waiters.add(wake);
      void until.then(() => settle(false));
    });
  }

  /** Counts a cacheable request's outcome, for `churning`. */
  noteLookup(key: string, hit: boolean): void {
    this.stats[hit ? 'hits' : 'misses']++;
    const run = this.missRuns.get(key) ?? 0;
    this.missRuns.delete(key);
    if (hit) return;
    this.missRuns.set(key, run + 1);
    if (this.missRuns.size > MAX_MISS_RUNS) this.missRuns.delete(this.missRuns.keys().next().value!);
  }

  /**
   * Whether the key's last few requests all missed: its responses are rewritten before the same caller reads them
   * again (a busy post's comments, a player's predictions while they predict). Responses are still cached, so a key
   * that settles is served again and leaves this state at its first hit.
   */
  churning(key: string): boolean {
    return (this.missRuns.get(key) ?? 0) >= CHURNING_AFTER_MISSES;
  }

  /**
   * Runs `cacheIt` (checking and caching a response already sent) after any such run under the same key still going.
   * It never rejects: caching is best effort.
   */
  cacheLater(key: string, cacheIt: () => Promise<void>): void {
    const run = (this.caching.get(key) ?? Promise.resolve())
      .then(cacheIt)
      .catch(() => undefined)
      .finally(() => {
        if (this.caching.get(key) === run) this.caching.delete(key);
      });
    this.caching.set(key, run);
  }

  /** Settles once no response under `key` is still being cached (undefined when none is). */
  beingCached(key: string): Promise<void> | undefined {
    return this.caching.get(key);
  }

  /**
   * The next kickoff or trivia window end after `now` (epoch ms), read again only when matches or trivia questions
   * were written or that moment has passed: two aggregates per cached response would cost more than caching it. Only
   * for requests whose clock is not behind the one it was read at: a kickoff in between has not happened for them.
   */
  async nextVisibilityChange(db: Database, versions: TableVersions, now: Date): Promise<number> {
    const version = versions.of([Model.Match, Model.TriviaQuestion]);
    const known = this.horizon;
    const at = now.getTime();
    if (known && known.version === version && at >= known.from && at < known.until) return known.until;
    const [kickoff, triviaEnd] = await Promise.all([
      db.prisma.match.aggregate({ _min: { date: true }, where: { date: { gt: now } } }),
      db.prisma.triviaQuestion.aggregate({ _min: { endsAt: true }, where: { endsAt: { gt: now } } }),
    ]);
    const until = Math.min(...[kickoff._min.date, triviaEnd._min.endsAt].map((d) => d?.getTime() ?? Infinity));
    this.horizon = { version, from: at, until };
    return until;
  }

  get size() {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private noteRecomputed(old: Entry, entry: Entry) {
    // Both JSON texts were written when each response was cached (for its byte count): comparing them walks nothing.
    const [a, b] = [settledJson(old.data), settledJson(entry.data)];
    const bytes = (json: string | Buffer) => (typeof json === 'string' ? Buffer.from(json) : json);
    const same = typeof a === 'string' && typeof b === 'string' ? a === b : bytes(a).equals(bytes(b));
    this.stats[same ? 'recomputedSame' : 'recomputedChanged']++;
  }

  private delete(key: string, entry: Entry) {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

function cacheable(operation: OperationDefinitionNode | undefined): boolean {
  if (!operation || operation.operation !== 'query') return false;
  return operation.selectionSet.selections.every(
    (s) => s.kind === Kind.FIELD && CACHEABLE_ROOT_FIELDS.has(s.name.value) && !s.directives?.length,
  );
}

export function responseCachePlugin(cache: ResponseCache, db: Database): ApolloServerPlugin<Context> {
  /**
   * Caches a response already sent, if nothing was committed to the tables it read while it was computed: then
   * every statement saw the state the versions read before it describe. Its statements are not the request's.
   */
  const cacheIfUnchanged = (
    key: string,
    computedAt: TableVersions,
    deps: string[],
    now: Date,
    data: Entry['data'],
    reads: RequestReads | null,
  ) =>
    uncounted(async () => {
      const after = await db.tableVersions(true);
      const version = computedAt.of(deps);
      if (!after || after.rollbacks !== computedAt.rollbacks || after.of(deps) !== version) {
        cache.stats.discards++;
        return;
      }
      // Every table its loaders read is among deps: what they read is that of these versions.
      reads?.share();
      const validUntil = await cache.nextVisibilityChange(db, after, now);
      // Written now, once: every hit then sends these bytes (settledJson). Counted twice, as the response is held both
      // as objects and as its JSON.
      const bytes = 2 * settledJson(data).length + key.length;
      cache.set(key, { tables: deps, version, validUntil, data, bytes });
    });

  return {
    async requestDidStart() {
      let key: string | null = null;
      let versions: TableVersions | null = null;
      let hit = false;
      /** The shared reads its loaders take and offer, once the versions it executes under are known. */
      let reads: RequestReads | null = null;
      const shareReads = (contextValue: Context, at: TableVersions) => {
        reads = new RequestReads(cache.reads, at);
        contextValue.scope.loaders.shareReads(reads);
      };
      return {
        async responseForOperation({ operation, request, contextValue, queryHash }) {
          const { auth } = contextValue.scope;
          versions = contextValue.tableVersions;
          if (versions === null || !cacheable(operation) || auth.viewerError || auth.tenantError) return null;
          let variables: string;
          try {
            variables = JSON.stringify(request.variables ?? {});
          } catch {
            return null; // nested past what JSON.stringify can walk: execution refuses such variables anyway
          }
          const who = [auth.viewer?.id, auth.viewerCompany?.id, auth.tenant?.id].map((id) => id ?? '-').join('|');
          const lookupKey = `${queryHash}|${request.operationName ?? ''}|${variables}|${who}`;
          key = lookupKey;
          // The same response, computed by a request just before, may still be on its way into the cache (cacheLater).
          await cache.beingCached(lookupKey);
          const data = cache.get(lookupKey, versions, contextValue.scope.now);
          if (data) {
            hit = true;
            return {
              http: { status: undefined, headers: new HeaderMap() },
              body: { kind: 'single', singleResult: { data } },
            };
          }
          // The versions were read as the request arrived; on a busy server it then waits (for the event loop, for an
          // execution slot: tens of ms under load), and a write committed meanwhile would discard what it computes.
          // Read them again just before it executes: the response is cached under the state it reads, and may have
          // been cached by another request meanwhile. The caller and tenant rows were read under the first versions:
          // only if those still hold.
          const first = versions;
          const now = contextValue.scope.now;
          const lookup = async () => {
            const fresh = await db.tableVersions().catch(() => null);
            if (
              !fresh ||
              fresh.rollbacks !== first.rollbacks ||
              fresh.of(AUTH_ROW_TABLES) !== first.of(AUTH_ROW_TABLES)
            ) {
              return null;
            }
            await cache.beingCached(lookupKey);
            return { fresh, cached: cache.get(lookupKey, fresh, now) };
          };
          // While it waits for a slot, an identical request (the same caller's other tab or device) may compute and
          // cache this response: looked up again then, under versions read then, it is a cache hit with no more wait.
          contextValue.cacheWhileWaiting = async (turn) => {
            let turned = false;
            void turn.then(() => (turned = true));
            while (!turned && (await cache.nextCached(lookupKey, turn))) {
              const found = await lookup();
              const cached = found?.cached;
              if (cached && !turned) {
                return () => {
                  versions = found.fresh;
                  hit = true;
                  return cached;
                };
              }
            }
            return undefined;
          };
          // Not for a key that keeps missing: that lookup would find nothing, and costs a statement under load.
          if (cache.churning(lookupKey)) {
            shareReads(contextValue, first);
            return null;
          }
          contextValue.lastCacheLookup = async () => {
            const found = await lookup();
            if (!found) return null;
            // Cached, if it is computed now, under the versions read just before it executes.
            versions = found.fresh;
            if (found.cached) hit = true;
            else shareReads(contextValue, found.fresh);
            return found.cached;
          };
          return null;
        },
        async willSendResponse({ response, contextValue }) {
          // Counted here, once per cacheable request, whichever lookup served it (or none).
          if (key !== null) cache.noteLookup(key, hit);
          if (hit || key === null || versions === null || response.body.kind !== 'single') return;
          const { data, errors } = response.body.singleResult;
          // The request's statements named these tables (src/engine/cache/tables-read.ts); none known, nothing cached.
          const read = currentSqlStats()?.tables;
          if (errors?.length || !data || !read) return;
          const tables = new Set([...read, ...AUTH_ROW_TABLES]);
          if ([...tables].some((t) => CLOCK_TABLES.has(tableOfCounter(t)))) {
            tables.add(Model.Match).add(Model.TriviaQuestion);
          }
          // Checked and cached after the response has left: the check is a statement, and under load each await costs
          // the request a turn of a busy event loop. A read of the same key waits for it (beingCached), not for more.
          const [at, computedAt, now, shared] = [key, versions, contextValue.scope.now, reads];
          cache.cacheLater(at, () => cacheIfUnchanged(at, computedAt, [...tables], now, data, shared));
        },
      };
    },
  };
}

/**
 * The executor after the response cache's last lookup (Context.lastCacheLookup): wrapped inside the execution slots,
 * so the versions are read when the query is about to run, not before it waited.
 */
export function withLastCacheLookup(executor: GatewayExecutor): GatewayExecutor {
  return async (requestContext) => {
    const lookup = (requestContext.context as Partial<Context>).lastCacheLookup;
    const data = lookup ? await lookup() : null;
    return data ? { data } : executor(requestContext);
  };
}
