// Whole-response cache for read operations (GraphQL queries and the REST routes' stored ones alike).
//
// Whose data: an answer is keyed by the document, its variables, the viewer and the tenant the request acts
// on. Lookups happen only after authentication and tenant checks have run for this request, so an answer is
// never served to anyone the same query would not have answered identically.
// Freshness: every request reads the database's data-version token (src/db/data-version.ts) before anything
// else (src/http/request-scope.ts). An answer is stored under that token only if it still held after the answer was
// computed (so every row read, the caller's own included, came from that one state), and served only to
// requests that read the same token. The rules that depend on the clock change at the next kickoff (prediction
// privacy: "others' predictions once the match has kicked off") and at the next end of a trivia question's window
// (a person's own graded answers, User.triviaSolutions, show from then on): an answer is served only before both.
// Scope: per process and bounded in bytes (least recently used out first). Correct across instances because
// the token comes from the shared database; any write anywhere invalidates every answer (coarse, never stale).
import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { Kind, type OperationDefinitionNode } from 'graphql';
import type { Database } from '../db/client.ts';
import type { Context } from './context.ts';

/**
 * Root fields whose answers depend only on stored data, the viewer, the tenant and kickoff times. A new
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

interface Entry {
  version: string;
  /** Epoch ms of the next kickoff or trivia window end after the answer was computed: visibility changes then. */
  validUntil: number;
  data: Record<string, unknown>;
  bytes: number;
}

export interface CacheStats {
  hits: number;
  misses: number;
  stores: number;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  readonly stats: CacheStats = { hits: 0, misses: 0, stores: 0 };

  constructor(private readonly maxBytes: number) {}

  get(key: string, version: string, now: Date): Entry['data'] | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.version !== version || now.getTime() >= entry.validUntil) {
      this.delete(key, entry);
      return null;
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.data;
  }

  set(key: string, entry: Entry): void {
    if (entry.bytes > this.maxBytes / 4) return; // one answer never crowds out the rest
    const old = this.entries.get(key);
    if (old) this.delete(key, old);
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(k, e);
    }
    this.stats.stores++;
  }

  get size() {
    return { entries: this.entries.size, bytes: this.bytes };
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
  return {
    async requestDidStart() {
      let key: string | null = null;
      let version: string | null = null;
      let hit = false;
      let stored: (() => void) | undefined;
      return {
        async responseForOperation({ operation, request, contextValue, queryHash }) {
          const { auth } = contextValue;
          version = contextValue.dataVersion;
          if (version === null || !cacheable(operation) || auth.viewerError || auth.tenantError) return null;
          let variables: string;
          try {
            variables = JSON.stringify(request.variables ?? {});
          } catch {
            return null; // nested past what JSON.stringify can walk: execution refuses such variables anyway
          }
          const who = [auth.viewer?.id, auth.viewerCompany?.id, auth.tenant?.id].map((id) => id ?? '-').join('|');
          key = `${queryHash}|${request.operationName ?? ''}|${variables}|${who}`;
          const data = cache.get(key, version, contextValue.now);
          if (!data) {
            cache.stats.misses++;
            return null;
          }
          cache.stats.hits++;
          hit = true;
          return {
            http: { status: undefined, headers: new HeaderMap() },
            body: { kind: 'single', singleResult: { data } },
          };
        },
        async executionDidStart({ contextValue }) {
          // Apollo runs every plugin's willSendResponse at once: the SQL statement report waits for the store.
          if (key !== null) contextValue.cacheWrite = new Promise((resolve) => (stored = resolve));
        },
        async willSendResponse({ response, contextValue }) {
          try {
            if (hit || key === null || version === null || response.body.kind !== 'single') return;
            const { data, errors } = response.body.singleResult;
            if (errors?.length || !data) return;
            // Stored only if nothing was committed while it was computed: then every statement saw one state.
            if ((await db.dataVersion()) !== version) return;
            const { now } = contextValue;
            const [kickoff, triviaEnd] = await Promise.all([
              db.prisma.match.aggregate({ _min: { date: true }, where: { date: { gt: now } } }),
              db.prisma.triviaQuestion.aggregate({ _min: { endsAt: true }, where: { endsAt: { gt: now } } }),
            ]);
            const next = [kickoff._min.date, triviaEnd._min.endsAt].map((d) => d?.getTime() ?? Infinity);
            const validUntil = Math.min(...next);
            cache.set(key, { version, validUntil, data, bytes: JSON.stringify(data).length + key.length });
          } catch {
            // Storing is best effort: the answer itself is already complete (an outage shows on the next request).
          } finally {
            stored?.();
          }
        },
      };
    },
  };
}
