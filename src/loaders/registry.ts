// One registry of DataLoaders per request. Loaders are created on first use, batch by id or by foreign key
// (one SQL statement per batch), prime the by-id loaders with every row they fetch, and are cleared after
// writes. Visibility rules that depend on the caller (tenant, own predictions, kickoff) are part of the
// loader's query, so field resolvers never filter or query per row.
//
// Plain DataLoaders, not subclasses: two loaders that extended DataLoader (returning repeats sooner) made the
// bench's deep query slower, one of them doubling its CPU, where the same logic wrapped around a DataLoader cost
// nothing extra (docs/decisions/0015-plain-dataloaders-wrapped.md). Change a loader's behaviour by wrapping it.
import DataLoader from 'dataloader';
import { loaderRowsOf, type Db } from '../db/client.ts';
import {
  findRows,
  plainWhere,
  type FindManyArgs,
  READ_WITH,
  type Column,
  type LoaderRows,
  type Model,
  type OrderBy,
  type RowOf,
  type Where,
} from '../db/loader-rows.ts';
import { readingRowsOf } from '../db/sql-stats.ts';
import type { RequestReads } from '../engine/cache/shared-reads.ts';

/** Well under PostgreSQL's 65,535 and SQLite's 32,766 bind variables per statement. */
export const MAX_BATCH = 5000;

export interface LoaderScope {
  tenantId: number | null;
  viewerId: number | null;
  now: Date;
  /** false only for the benchmark's naive baseline (DATALOADER_BATCHING=false): one query per key. */
  batching?: boolean;
  /**
   * The request's object budget (src/app/object-budget.ts): no batch loads more rows than it has left, so one batch
   * cannot pull a million rows into memory before the budget sees them.
   */
  budget?: { readonly left: number; add(count: number): void };
}

// The loaders read through LoaderRows (src/db/loader-rows.ts): Prisma's findMany and groupBy, or with the engine on
// the same rows by hand-written SQL (src/engine/db/loader-sql.ts). Filters on relations or on dates are Prisma's
// findMany either way.

/**
 * Tables whose rows are not shared between requests even by id: a player's predictions and answers, whose versions
 * are held per owner or whose visibility turns on the clock (src/engine/cache/response-cache.ts). (A team taken from
 * another request's read comes without the country READ_WITH primes: the country loader then reads it, or takes it.)
 */
const NOT_SHARED = new Set<Model>(['Prediction', 'TriviaAnswer', 'TriviaSolution', 'BonusAnswer', 'DreamFinalPick']);

const readsWithParent = (model: Model): model is keyof typeof READ_WITH => Object.hasOwn(READ_WITH, model);

export class Loaders {
  private readonly loaders = new Map<string, DataLoader<unknown, unknown>>();

  /** Other requests' reads this one may take (src/engine/cache/shared-reads.ts); set by the response cache on a
   * miss. */
  private reads: RequestReads | null = null;

  private readonly options: { maxBatchSize: number };

  constructor(
    private readonly prisma: Db,
    private readonly scope: LoaderScope,
    /** How rows are read: the engine's choice for this client (src/engine/index.ts) unless given. */
    private readonly rows: LoaderRows = loaderRowsOf(prisma),
  ) {
    this.options = { maxBatchSize: scope.batching === false ? 1 : MAX_BATCH };
  }

  /** From now on, the shareable loaders take what other requests read at the same versions, and offer their reads. */
  shareReads(reads: RequestReads): void {
    this.reads = reads;
  }

  /**
   * `load`'s results for `keys`, those another request read at the same versions taken instead (shareReads). Only for
   * loaders whose statement depends on their keys alone; `name` null for the others.
   */
  private async shareable<V>(
    name: string | null,
    model: Model | readonly Model[],
    keys: readonly number[],
    load: (keys: readonly number[]) => Promise<V[]>,
  ): Promise<V[]> {
    const reads = this.reads;
    if (!reads || name === null) return load(keys);
    // The tables its statement reads: the model's, or those given.
    const tables = typeof model === 'string' ? [model] : model;
    const values = new Array<V>(keys.length);
    const missing: number[] = [];
    const at: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      const found = reads.take(tables, `${name}:${keys[i]}`);
      if (found) values[i] = found.value as V;
      else {
        missing.push(keys[i]);
        at.push(i);
      }
    }
    if (missing.length === 0) return values;
    const loaded = await load(missing);
    for (let j = 0; j < missing.length; j++) {
      values[at[j]] = loaded[j];
      reads.readFrom(tables, `${name}:${missing[j]}`, loaded[j]);
    }
    return values;
  }

  /** One row past what the budget has left tells that it would be exceeded. */
  private cap(): number | undefined {
    return this.scope.budget ? this.scope.budget.left + 1 : undefined;
  }

  private spent(cap: number | undefined, rows: number) {
    if (cap !== undefined && rows >= cap) this.scope.budget!.add(rows);
  }

  /** Rows of the model whose `key` is one of `keys` and that match `where`, in `orderBy` order. */
  private async rowsWhere<M extends Model>(
    model: M,
    key: Column<M>,
    keys: readonly number[],
    where: Where<M> = {},
    orderBy: OrderBy<M> = [],
  ): Promise<RowOf<M>[]> {
    const take = this.cap();
    const plain = plainWhere<M>(where);
    const rows = plain
      ? await this.rows.rowsIn({ model, key, keys, where: plain, orderBy, take })
      : await findRows(this.prisma, model, {
          where: { ...where, [key]: { in: [...keys] } },
          orderBy: [...orderBy],
          ...(take === undefined ? {} : { take }),
        } as FindManyArgs<M>);
    this.spent(take, rows.length);
    return rows;
  }

  /** Rows by id, each read with the row READ_WITH names, which primes that model's loader. */
  private async rowsWithParents<M extends keyof typeof READ_WITH>(model: M, ids: readonly number[]) {
    const take = this.cap();
    const joined = await this.rows.rowsWithParent(model, ids, take);
    this.spent(take, joined.length);
    const parents = this.byId(READ_WITH[model].parent);
    return joined.map(({ row, parent }) => {
      if (parent !== null) parents.prime(parent.id, parent);
      return row;
    });
  }

  private lazy<K, V>(name: string, create: () => DataLoader<K, V>): DataLoader<K, V> {
    let loader = this.loaders.get(name);
    if (!loader) {
      loader = create() as DataLoader<unknown, unknown>;
      this.loaders.set(name, loader);
    }
    return loader as DataLoader<K, V>;
  }

  /**
   * A loader whose batch an operation computes (an aggregate of src/game, say), made once per request under `name`
   * and cleared after writes as the others are. Its values depend on the caller's scope, so other requests never
   * take them.
   */
  computed<V>(name: string, load: (keys: readonly number[]) => Promise<V[]>): DataLoader<number, V> {
    return this.lazy(`computed:${name}`, () => new DataLoader<number, V>((keys) => load(keys), this.options));
  }

  /** Rows by primary key; null for ids that do not exist. */
  byId<M extends Model>(model: M): DataLoader<number, RowOf<M> | null> {
    return this.lazy(
      `${model}#id`,
      () =>
        new DataLoader<number, RowOf<M> | null>(
          (keys) =>
            this.shareable(NOT_SHARED.has(model) ? null : `${model}#id`, model, keys, async (ids) => {
              const rows: RowOf<M>[] = readsWithParent(model)
                ? await this.rowsWithParents(model, ids)
                : await this.rowsWhere(model, 'id' as Column<M>, ids);
              const map = new Map(rows.map((r) => [idOf(r), r]));
              return ids.map((id) => map.get(id) ?? null);
            }),
          this.options,
        ),
    );
  }

  /**
   * Rows grouped by a foreign key, each list in `orderBy` order; `where` narrows them further. `ownedBy`: the owners
   * whose rows are all a batch can read (its key or its `where` says so), for the response cache's versions per owner
   * (src/engine/cache/owner-buckets.ts). `shared`: its statement depends on the keys alone (a fixed `where` of plain
   * values, not the caller's, the tenant's or the clock's), so other requests may take what it read (shareReads).
   */
  private manyBy<M extends Model>(
    name: string,
    model: M,
    key: Column<M>,
    orderBy: OrderBy<M>,
    where: Where<M> = {},
    { ownedBy, shared = false }: { ownedBy?: (keys: readonly number[]) => Iterable<number>; shared?: boolean } = {},
  ): DataLoader<number, RowOf<M>[]> {
    return this.lazy(
      name,
      () =>
        new DataLoader<number, RowOf<M>[]>(async (keys) => {
          const lists = await this.shareable(shared ? name : null, model, keys, async (keys) => {
            const read = () => this.rowsWhere(model, key, keys, where, orderBy);
            const rows = ownedBy ? await readingRowsOf(model, ownedBy(keys), read) : await read();
            const groups = new Map<number, RowOf<M>[]>(keys.map((k) => [k, []]));
            for (const row of rows) groups.get((row as Record<string, unknown>)[key] as number)?.push(row);
            return keys.map((k) => groups.get(k)!);
          });
          const byId = this.byId(model);
          // A model whose id is not a number (a company's extra fields) has no loader by id to prime.
          for (const list of lists)
            for (const row of list) if (typeof (row as { id?: unknown }).id === 'number') byId.prime(idOf(row), row);
          return lists;
        }, this.options),
    );
  }

  /** Counts grouped by a foreign key. */
  private countBy<M extends Model>(name: string, model: M, key: Column<M>): DataLoader<number, number> {
    return this.lazy(
      name,
      () =>
        new DataLoader<number, number>(
          (keys) =>
            this.shareable(name, model, keys, async (keys) => {
              const counts = await this.rows.countsBy(model, key, keys);
              return keys.map((k) => counts.get(k) ?? 0);
            }),
          this.options,
        ),
    );
  }

  /** Which of the keys the viewer has liked (a like row with userId = viewer). */
  private likedBy<M extends Model>(name: string, model: M, key: Column<M>): DataLoader<number, boolean> {
    return this.lazy(
      name,
      () =>
        new DataLoader<number, boolean>(async (keys) => {
          if (this.scope.viewerId == null) return keys.map(() => false);
          const liked = new Set(await this.rows.keysWithUser(model, key, this.scope.viewerId, keys));
          return keys.map((k) => liked.has(k));
        }, this.options),
    );
  }

  get company() {
    return this.byId('Company');
  }
  get user() {
    return this.byId('User');
  }
  get area() {
    return this.byId('Area');
  }
  get tournament() {
    return this.byId('Tournament');
  }
  get round() {
    return this.byId('Round');
  }
  get match() {
    return this.byId('Match');
  }
  get team() {
    return this.byId('Team');
  }
  get country() {
    return this.byId('Country');
  }
  get post() {
    return this.byId('Post');
  }
  get comment() {
    return this.byId('PostComment');
  }
  get internalRanking() {
    return this.byId('InternalRanking');
  }

  get areasByCompany() {
    return this.manyBy(
      'areasByCompany',
      'Area',
      'companyId',
      [{ level: 'asc' }, { name: 'asc' }, { id: 'asc' }],
      {},
      { shared: true },
    );
  }
  get childAreas() {
    return this.manyBy('childAreas', 'Area', 'parentAreaId', [{ name: 'asc' }, { id: 'asc' }], {}, { shared: true });
  }
  get roundsByTournament() {
    return this.manyBy(
      'roundsByTournament',
      'Round',
      'tournamentId',
      [{ position: 'asc' }, { id: 'asc' }],
      {},
      { shared: true },
    );
  }
  get matchesByRound() {
    return this.manyBy('matchesByRound', 'Match', 'roundId', [{ date: 'asc' }, { id: 'asc' }], {}, { shared: true });
  }
  get commentsByPost() {
    return this.manyBy(
      'commentsByPost',
      'PostComment',
      'postId',
      [{ createdAt: 'asc' }, { id: 'asc' }],
      {},
      { shared: true },
    );
  }
  get likesByPost() {
    return this.manyBy('likesByPost', 'PostLike', 'postId', [{ id: 'asc' }], {}, { shared: true });
  }
  get likesByComment() {
    return this.manyBy('likesByComment', 'PostCommentLike', 'commentId', [{ id: 'asc' }], {}, { shared: true });
  }
  get dreamFinalsByCompany() {
    return this.manyBy(
      'dreamFinalsByCompany',
      'DreamFinalsSetting',
      'companyId',
      [{ id: 'asc' }],
      {},
      { shared: true },
    );
  }
  get extraFieldsByCompany() {
    return this.manyBy(
      'extraFieldsByCompany',
      'CompanyExtraField',
      'companyId',
      [{ order: 'asc' }],
      {},
      { shared: true },
    );
  }
  get managedCompanies() {
    return this.manyBy(
      'managedCompanies',
      'Company',
      'resellerCompanyId',
      [{ name: 'asc' }, { id: 'asc' }],
      { deletedAt: null },
      { shared: true },
    );
  }
  get customTeamsByCompany() {
    return this.manyBy('customTeamsByCompany', 'Team', 'companyId', [{ name: 'asc' }], {}, { shared: true });
  }
  get customTournamentsByCompany() {
    return this.manyBy(
      'customTournamentsByCompany',
      'Tournament',
      'ownerCompanyId',
      [{ id: 'asc' }],
      {
        deletedAt: null,
      },
      { shared: true },
    );
  }
  get adminsByCompany() {
    return this.manyBy(
      'adminsByCompany',
      'User',
      'companyId',
      [{ name: 'asc' }, { id: 'asc' }],
      {
        role: 'admin',
        deletedAt: null,
      },
      { shared: true },
    );
  }
  get teamsByCountry() {
    return this.manyBy('teamsByCountry', 'Team', 'countryId', [{ name: 'asc' }], { companyId: null }, { shared: true });
  }
  get tournamentsByCountry() {
    return this.manyBy(
      'tournamentsByCountry',
      'Tournament',
      'countryId',
      [{ name: 'asc' }],
      {
        ownerCompanyId: null,
        deletedAt: null,
      },
      { shared: true },
    );
  }
  get postsByUser() {
    return this.manyBy(
      'postsByUser',
      'Post',
      'userId',
      [{ createdAt: 'desc' }, { id: 'desc' }],
      {
        deletedAt: null,
      },
      { shared: true },
    );
  }
  get firebaseTokensByUser() {
    return this.manyBy('firebaseTokensByUser', 'FirebaseToken', 'userId', [{ id: 'asc' }]);
  }
  get internalRankingMembershipsByUser() {
    return this.manyBy('internalRankingMembershipsByUser', 'InternalRankingMembership', 'userId', [{ id: 'asc' }]);
  }
  get triviaAnswersByUser() {
    return this.manyBy('triviaAnswersByUser', 'TriviaAnswer', 'userId', [{ id: 'asc' }]);
  }
  /**
   * A user's graded trivia answers, only of questions whose window has ended: until then nobody learns whether an
   * answer was right (src/domain/trivia.ts).
   */
  get triviaSolutionsByUser() {
    return this.manyBy('triviaSolutionsByUser', 'TriviaSolution', 'userId', [{ id: 'asc' }], {
      question: { endsAt: { lte: this.scope.now } },
    });
  }
  /** The viewer's own answer to each trivia question (none or one). */
  get ownTriviaAnswersByQuestion() {
    return this.manyBy('ownTriviaAnswersByQuestion', 'TriviaAnswer', 'questionId', [{ id: 'asc' }], {
      userId: this.scope.viewerId ?? -1,
    });
  }
  /** The viewer's own graded answer to each trivia question (none or one); callers ask once the window has ended. */
  get ownTriviaSolutionsByQuestion() {
    return this.manyBy('ownTriviaSolutionsByQuestion', 'TriviaSolution', 'questionId', [{ id: 'asc' }], {
      userId: this.scope.viewerId ?? -1,
    });
  }

  /** Tournaments a company takes part in, plus its own custom tournaments, active ones first. */
  get tournamentsByCompany(): DataLoader<number, TournamentRow[]> {
    return this.lazy(
      'tournamentsByCompany',
      () =>
        new DataLoader<number, TournamentRow[]>(async (companyIds) => {
          // Its statement reads both tables, and depends on the companies alone.
          const lists = await this.shareable(
            'tournamentsByCompany',
            ['Tournament', 'CompanyTournament'],
            companyIds,
            (ids) => this.companiesTournaments(ids),
          );
          for (const list of lists) for (const t of list) this.tournament.prime(t.id, t);
          return lists;
        }, this.options),
    );
  }

  private async companiesTournaments(companyIds: readonly number[]): Promise<TournamentRow[][]> {
    const ids = [...companyIds];
    // The usual request asks for one company: every row is its own, no need to read who takes part.
    if (ids.length === 1) return [await this.rows.companyTournaments(ids[0])];
    const rows = (await this.prisma.tournament.findMany({
      where: {
        deletedAt: null,
        OR: [{ companies: { some: { companyId: { in: ids } } } }, { ownerCompanyId: { in: ids } }],
      },
      include: { companies: { where: { companyId: { in: ids } }, select: { companyId: true } } },
      orderBy: [{ id: 'asc' }],
    })) as Array<TournamentRow & { companies: Array<{ companyId: number }> }>;
    const groups = new Map<number, TournamentRow[]>(ids.map((k) => [k, []]));
    for (const { companies, ...t } of rows) {
      const owners = new Set([
        ...companies.map((c) => c.companyId),
        ...(t.ownerCompanyId != null ? [t.ownerCompanyId] : []),
      ]);
      for (const cid of owners) groups.get(cid)?.push(t);
    }
    return ids.map((k) => groups.get(k)!);
  }

  /**
   * Predictions of a match the viewer may see: only the tenant's users, and other users' predictions only
   * once the match has kicked off (docs/design.md, "Privacy of predictions").
   */
  get visiblePredictionsByMatch() {
    const { tenantId, viewerId, now } = this.scope;
    return this.manyBy('visiblePredictionsByMatch', 'Prediction', 'matchId', [{ id: 'asc' }], {
      user: { companyId: tenantId ?? -1 },
      OR: [{ userId: viewerId ?? -1 }, { match: { date: { lte: now } } }],
    });
  }

  get membershipsByRanking() {
    return this.manyBy(
      'membershipsByRanking',
      'InternalRankingMembership',
      'rankingId',
      [{ id: 'asc' }],
      {},
      { shared: true },
    );
  }

  /** The viewer's dream-final picks per setting. */
  get ownDreamPicksBySetting() {
    return this.manyBy('ownDreamPicksBySetting', 'DreamFinalPick', 'settingId', [{ position: 'asc' }], {
      userId: this.scope.viewerId ?? -1,
    });
  }

  /** The viewer's own predictions of the matches. */
  get ownPredictionsByMatch() {
    const viewer = this.scope.viewerId ?? -1;
    return this.manyBy(
      'ownPredictionsByMatch',
      'Prediction',
      'matchId',
      [{ id: 'asc' }],
      { userId: viewer },
      { ownedBy: () => [viewer] },
    );
  }

  /**
   * A user's predictions as the viewer may see them, with the same rule as a match's: only users of the
   * tenant (a user reached in another company, say a managed company's admin, shows none; without a tenant,
   * nobody's), and of those all of the viewer's own, others' only after kickoff.
   */
  get visiblePredictionsByUser() {
    const { tenantId, viewerId, now } = this.scope;
    return this.manyBy(
      'visiblePredictionsByUser',
      'Prediction',
      'userId',
      [{ matchId: 'asc' }],
      { user: { companyId: tenantId ?? -1 }, OR: [{ userId: viewerId ?? -1 }, { match: { date: { lte: now } } }] },
      { ownedBy: (userIds) => userIds },
    );
  }

  get commentCountByPost() {
    return this.countBy('commentCountByPost', 'PostComment', 'postId');
  }
  get likeCountByPost() {
    return this.countBy('likeCountByPost', 'PostLike', 'postId');
  }
  get likeCountByComment() {
    return this.countBy('likeCountByComment', 'PostCommentLike', 'commentId');
  }
  get postLikedByViewer() {
    return this.likedBy('postLikedByViewer', 'PostLike', 'postId');
  }
  get commentLikedByViewer() {
    return this.likedBy('commentLikedByViewer', 'PostCommentLike', 'commentId');
  }

  /** After a write: every cached result may be stale. */
  clearAll(): void {
    for (const loader of this.loaders.values()) loader.clearAll();
  }
}

/** A row's id, for the models read by id (all of them but a company's extra fields, keyed by text). */
const idOf = (row: object) => (row as { id: number }).id;

import type {
  AreaRow,
  CommentRow,
  CompanyRow,
  CountryRow,
  MatchRow,
  PostRow,
  PredictionRow,
  RoundRow,
  TeamRow,
  TournamentRow,
  UserRow,
} from '../db/rows.ts';
export type {
  AreaRow,
  CompanyRow,
  CountryRow,
  MatchRow,
  PostRow,
  CommentRow,
  PredictionRow,
  RoundRow,
  TeamRow,
  TournamentRow,
  UserRow,
};
