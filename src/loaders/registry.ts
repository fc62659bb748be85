// One registry of DataLoaders per request. Loaders are created on first use, batch by id or by foreign key
// (one SQL statement per batch), prime the by-id loaders with every row they fetch, and are cleared after
// writes. Visibility rules that depend on the caller (tenant, own predictions, kickoff) are part of the
// loader's query, so field resolvers never filter or query per row.
//
// Plain DataLoaders, not subclasses: two loaders that extended DataLoader (answering repeats sooner) made the
// bench's deep query slower, one of them doubling its CPU, where the same logic wrapped around a DataLoader cost
// nothing extra (docs/performance.md, "Answers written as bytes"). Change a loader's behaviour by wrapping it.
import DataLoader from 'dataloader';
import { providerOf, rowReaderOf, type Db } from '../db/client.ts';
import type { RowReader } from '../engine/db/row-reader.ts';
import { inKeys, Prisma } from '../db/sql.ts';
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

type Row = { id: number } & Record<string, unknown>;
type Delegate = { findMany(args: object): Promise<Row[]> };

// The loaders read with plain SQL where their filter is plain: the rows are the same objects Prisma's findMany
// builds (test/engine/db/loader-rows.test.ts compares every model), at well under half its cost per row, which
// the benchmarks showed to be the largest part of a deep query. The statements go to the driver adapter directly
// (src/engine/db/row-reader.ts), past Prisma's raw-query pipeline. Identifiers come from this file, never from a
// request. Filters on relations or on dates stay Prisma's.

/** A model's table (the schema maps no names): the delegate name capitalised. */
const tableName = (model: string) => `${model[0].toUpperCase()}${model.slice(1)}`;
const table = (model: string) => Prisma.raw(`"${tableName(model)}"`);
const column = (name: string) => Prisma.raw(`"${name}"`);

/**
 * Models read by id together with the row a column of theirs points at, which then primes that model's loader. A
 * match's teams, their countries and those countries' lists of names were three waves of statements one after the
 * other in `GET /companies/search`; reading a team's country with it makes them two. Teams are few and small: the
 * join costs nothing where the country is not asked for.
 */
const READ_WITH: Record<string, { model: string; key: string; columns: readonly string[] }> = {
  team: { model: 'country', key: 'countryId', columns: Object.values(Prisma.CountryScalarFieldEnum) },
};

/** `where` as SQL conditions when it only compares columns with null, a number or a string; null otherwise. */
function plainConditions(where: Record<string, unknown>): Prisma.Sql[] | null {
  const conditions: Prisma.Sql[] = [];
  for (const [name, value] of Object.entries(where)) {
    if (value === null) conditions.push(Prisma.sql`${column(name)} IS NULL`);
    else if (typeof value === 'number' && Number.isInteger(value))
      conditions.push(Prisma.sql`${column(name)} = ${value}`);
    // As text: on PostgreSQL the column may be an enum (a user's role), which a text parameter does not compare with.
    else if (typeof value === 'string') conditions.push(Prisma.sql`CAST(${column(name)} AS TEXT) = ${value}`);
    else return null;
  }
  return conditions;
}

function orderSql(orderBy: object | object[]): Prisma.Sql {
  const terms = (Array.isArray(orderBy) ? orderBy : [orderBy])
    .flatMap((o) => Object.entries(o))
    .map(([name, dir]) => Prisma.sql`${column(name)} ${Prisma.raw(dir === 'desc' ? 'DESC' : 'ASC')}`);
  return terms.length ? Prisma.sql`ORDER BY ${Prisma.join(terms)}` : Prisma.empty;
}

/**
 * Tables whose rows are not shared between requests even by id: a player's predictions and answers, whose counts
 * are kept per owner or whose visibility turns on the clock (src/engine/cache/response-cache.ts). (A team taken from
 * another request's read comes without the country READ_WITH primes: the country loader then reads it, or takes it.)
 */
const NOT_SHARED = new Set(['prediction', 'triviaAnswer', 'triviaSolution', 'bonusAnswer', 'dreamFinalPick']);

export class Loaders {
  private readonly loaders = new Map<string, DataLoader<unknown, unknown>>();

  /** Other requests' reads this one may take (src/engine/cache/shared-reads.ts); set by the response cache on a
   * miss. */
  private reads: RequestReads | null = null;

  private readonly options: { maxBatchSize: number };

  private readonly provider: string;

  private readonly readRows: RowReader;

  constructor(
    private readonly prisma: Db,
    private readonly scope: LoaderScope,
  ) {
    this.options = { maxBatchSize: scope.batching === false ? 1 : MAX_BATCH };
    this.provider = providerOf(prisma);
    this.readRows = rowReaderOf(prisma);
  }

  /** From now on, the shareable loaders take what other requests read at the same counts, and offer what they read. */
  shareReads(reads: RequestReads): void {
    this.reads = reads;
  }

  /**
   * `load`'s answers for `keys`, those another request read at the same counts taken instead (shareReads). Only for
   * loaders whose statement depends on their keys alone; `name` null for the others.
   */
  private async shareable<V>(
    name: string | null,
    model: string | readonly string[],
    keys: readonly number[],
    load: (keys: readonly number[]) => Promise<V[]>,
  ): Promise<V[]> {
    const reads = this.reads;
    if (!reads || name === null) return load(keys);
    // The tables its statement reads: the model's, or those given.
    const tables = typeof model === 'string' ? [tableName(model)] : model;
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

  private keyIn(key: string, keys: readonly (number | string)[]) {
    return inKeys(this.provider, column(key), keys);
  }

  private delegate(model: string): Delegate {
    return (this.prisma as unknown as Record<string, Delegate>)[model];
  }

  /** Rows of the model whose `key` is one of `keys` and that match `where`, in `orderBy` order. */
  private async rowsWhere<T extends Row>(
    model: string,
    key: string,
    keys: readonly number[],
    where: Record<string, unknown> = {},
    orderBy: object | object[] = [],
  ): Promise<T[]> {
    const conditions = plainConditions(where);
    // One row past what the budget has left tells that it would be exceeded.
    const cap = this.scope.budget ? this.scope.budget.left + 1 : undefined;
    let rows: T[];
    if (conditions) {
      const filter = Prisma.join([this.keyIn(key, keys), ...conditions], ' AND ');
      const limit = cap === undefined ? Prisma.empty : Prisma.sql`LIMIT ${cap}`;
      rows = await this.readRows<T>(
        Prisma.sql`SELECT * FROM ${table(model)} WHERE ${filter} ${orderSql(orderBy)} ${limit}`,
      );
    } else {
      const args = {
        where: { ...where, [key]: { in: [...keys] } },
        orderBy,
        ...(cap === undefined ? {} : { take: cap }),
      };
      rows = (await this.delegate(model).findMany(args)) as T[];
    }
    if (cap !== undefined && rows.length >= cap) this.scope.budget!.add(rows.length);
    return rows;
  }

  /** `rowsWhere(model, 'id', ids)`, each row read with the row READ_WITH names, which primes that model's loader. */
  private async rowsWithParents(model: string, ids: readonly number[]): Promise<Row[]> {
    const { model: parent, key, columns } = READ_WITH[model];
    const own = tableName(model);
    const other = tableName(parent);
    // Aliased `country.id`, ...: no column of ours has a dot in its name.
    const prefix = `${parent}.`;
    const selected = columns.map((c) => Prisma.raw(`"${other}"."${c}" AS "${prefix}${c}"`));
    const cap = this.scope.budget ? this.scope.budget.left + 1 : undefined;
    const limit = cap === undefined ? Prisma.empty : Prisma.sql`LIMIT ${cap}`;
    const joined = await this.readRows<Record<string, unknown>>(Prisma.sql`
      SELECT "${Prisma.raw(own)}".*, ${Prisma.join(selected)} FROM "${Prisma.raw(own)}"
      LEFT JOIN "${Prisma.raw(other)}" ON "${Prisma.raw(other)}"."id" = "${Prisma.raw(own)}"."${Prisma.raw(key)}"
      WHERE ${inKeys(this.provider, Prisma.raw(`"${own}"."id"`), ids)} ${limit}`);
    if (cap !== undefined && joined.length >= cap) this.scope.budget!.add(joined.length);
    const parents = this.byId<Row>(parent);
    return joined.map((row) => {
      const ownRow: Record<string, unknown> = {};
      const parentRow: Record<string, unknown> = {};
      for (const name in row) {
        if (name.startsWith(prefix)) parentRow[name.slice(prefix.length)] = row[name];
        else ownRow[name] = row[name];
      }
      if (parentRow.id !== null) parents.prime(parentRow.id as number, parentRow as Row);
      return ownRow as Row;
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

  /** Rows by primary key; null for ids that do not exist. */
  byId<T = Row>(model: string): DataLoader<number, T | null> {
    return this.lazy(
      `${model}#id`,
      () =>
        new DataLoader<number, T | null>(
          (keys) =>
            this.shareable(NOT_SHARED.has(model) ? null : `${model}#id`, model, keys, async (ids) => {
              const rows = Object.hasOwn(READ_WITH, model)
                ? await this.rowsWithParents(model, ids)
                : await this.rowsWhere(model, 'id', ids);
              const map = new Map(rows.map((r) => [r.id, r]));
              return ids.map((id) => (map.get(id) ?? null) as T | null);
            }),
          this.options,
        ),
    );
  }

  /**
   * Rows grouped by a foreign key, each list in `orderBy` order; `where` narrows them further. `ownedBy`: the owners
   * whose rows are all a batch can read (its key or its `where` says so), for the response cache's counts per owner
   * (src/engine/cache/owner-buckets.ts). `shared`: its statement depends on the keys alone (a fixed `where` of plain
   * values, not the caller's, the tenant's or the clock's), so other requests may take what it read (shareReads).
   */
  private manyBy<T extends Row>(
    name: string,
    model: string,
    key: string,
    orderBy: object,
    where: object = {},
    { ownedBy, shared = false }: { ownedBy?: (keys: readonly number[]) => Iterable<number>; shared?: boolean } = {},
  ): DataLoader<number, T[]> {
    return this.lazy(
      name,
      () =>
        new DataLoader<number, T[]>(async (keys) => {
          const lists = await this.shareable(shared ? name : null, model, keys, async (keys) => {
            const read = () => this.rowsWhere<T>(model, key, keys, where as Record<string, unknown>, orderBy);
            const rows = ownedBy ? await readingRowsOf(tableName(model), ownedBy(keys), read) : await read();
            const groups = new Map<number, T[]>(keys.map((k) => [k, []]));
            for (const row of rows) groups.get(row[key] as number)?.push(row);
            return keys.map((k) => groups.get(k)!);
          });
          const byId = this.byId<T>(model);
          for (const list of lists) for (const row of list) byId.prime(row.id, row);
          return lists;
        }, this.options),
    );
  }

  /** Counts grouped by a foreign key. */
  private countBy(name: string, model: string, key: string): DataLoader<number, number> {
    return this.lazy(
      name,
      () =>
        new DataLoader<number, number>(
          (keys) =>
            this.shareable(name, model, keys, async (keys) => {
              const groups = await this.readRows<{ key: number; count: number }>(Prisma.sql`
                SELECT ${column(key)} AS "key", CAST(COUNT(*) AS INTEGER) AS "count" FROM ${table(model)}
                WHERE ${this.keyIn(key, keys)} GROUP BY ${column(key)}`);
              const map = new Map(groups.map((g) => [Number(g.key), Number(g.count)]));
              return keys.map((k) => map.get(k) ?? 0);
            }),
          this.options,
        ),
    );
  }

  /** Which of the keys the viewer has liked (a like row with userId = viewer). */
  private likedBy(name: string, model: string, key: string): DataLoader<number, boolean> {
    return this.lazy(
      name,
      () =>
        new DataLoader<number, boolean>(async (keys) => {
          if (this.scope.viewerId == null) return keys.map(() => false);
          const rows = await this.readRows<{ key: number }>(Prisma.sql`
            SELECT ${column(key)} AS "key" FROM ${table(model)}
            WHERE "userId" = ${this.scope.viewerId} AND ${this.keyIn(key, keys)}`);
          const liked = new Set(rows.map((r) => Number(r.key)));
          return keys.map((k) => liked.has(k));
        }, this.options),
    );
  }

  get company() {
    return this.byId<CompanyRow>('company');
  }
  get user() {
    return this.byId<UserRow>('user');
  }
  get area() {
    return this.byId<AreaRow>('area');
  }
  get tournament() {
    return this.byId<TournamentRow>('tournament');
  }
  get round() {
    return this.byId<RoundRow>('round');
  }
  get match() {
    return this.byId<MatchRow>('match');
  }
  get team() {
    return this.byId<TeamRow>('team');
  }
  get country() {
    return this.byId<CountryRow>('country');
  }
  get post() {
    return this.byId<PostRow>('post');
  }
  get comment() {
    return this.byId<CommentRow>('postComment');
  }

  get areasByCompany() {
    return this.manyBy<AreaRow>(
      'areasByCompany',
      'area',
      'companyId',
      [{ level: 'asc' }, { name: 'asc' }, { id: 'asc' }],
      {},
      { shared: true },
    );
  }
  get childAreas() {
    return this.manyBy<AreaRow>(
      'childAreas',
      'area',
      'parentAreaId',
      [{ name: 'asc' }, { id: 'asc' }],
      {},
      { shared: true },
    );
  }
  get roundsByTournament() {
    return this.manyBy<RoundRow>(
      'roundsByTournament',
      'round',
      'tournamentId',
      [{ position: 'asc' }, { id: 'asc' }],
      {},
      { shared: true },
    );
  }
  get matchesByRound() {
    return this.manyBy<MatchRow>(
      'matchesByRound',
      'match',
      'roundId',
      [{ date: 'asc' }, { id: 'asc' }],
      {},
      { shared: true },
    );
  }
  get commentsByPost() {
    return this.manyBy<CommentRow>(
      'commentsByPost',
      'postComment',
      'postId',
      [{ createdAt: 'asc' }, { id: 'asc' }],
      {},
      { shared: true },
    );
  }
  get likesByPost() {
    return this.manyBy<Row>('likesByPost', 'postLike', 'postId', [{ id: 'asc' }], {}, { shared: true });
  }
  get likesByComment() {
    return this.manyBy<Row>('likesByComment', 'postCommentLike', 'commentId', [{ id: 'asc' }], {}, { shared: true });
  }
  get dreamFinalsByCompany() {
    return this.manyBy<Row>(
      'dreamFinalsByCompany',
      'dreamFinalsSetting',
      'companyId',
      [{ id: 'asc' }],
      {},
      { shared: true },
    );
  }
  get extraFieldsByCompany() {
    return this.manyBy<Row & { id: never }>(
      'extraFieldsByCompany',
      'companyExtraField',
      'companyId',
      [{ order: 'asc' }],
      {},
      { shared: true },
    );
  }
  get managedCompanies() {
    return this.manyBy<CompanyRow>(
      'managedCompanies',
      'company',
      'resellerCompanyId',
      [{ name: 'asc' }, { id: 'asc' }],
      { deletedAt: null },
      { shared: true },
    );
  }
  get customTeamsByCompany() {
    return this.manyBy<TeamRow>('customTeamsByCompany', 'team', 'companyId', [{ name: 'asc' }], {}, { shared: true });
  }
  get customTournamentsByCompany() {
    return this.manyBy<TournamentRow>(
      'customTournamentsByCompany',
      'tournament',
      'ownerCompanyId',
      [{ id: 'asc' }],
      {
        deletedAt: null,
      },
      { shared: true },
    );
  }
  get adminsByCompany() {
    return this.manyBy<UserRow>(
      'adminsByCompany',
      'user',
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
    return this.manyBy<TeamRow>(
      'teamsByCountry',
      'team',
      'countryId',
      [{ name: 'asc' }],
      { companyId: null },
      { shared: true },
    );
  }
  get tournamentsByCountry() {
    return this.manyBy<TournamentRow>(
      'tournamentsByCountry',
      'tournament',
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
    return this.manyBy<PostRow>(
      'postsByUser',
      'post',
      'userId',
      [{ createdAt: 'desc' }, { id: 'desc' }],
      {
        deletedAt: null,
      },
      { shared: true },
    );
  }
  get firebaseTokensByUser() {
    return this.manyBy<Row>('firebaseTokensByUser', 'firebaseToken', 'userId', [{ id: 'asc' }]);
  }
  get internalRankingMembershipsByUser() {
    return this.manyBy<Row>('internalRankingMembershipsByUser', 'internalRankingMembership', 'userId', [{ id: 'asc' }]);
  }
  get triviaAnswersByUser() {
    return this.manyBy<Row>('triviaAnswersByUser', 'triviaAnswer', 'userId', [{ id: 'asc' }]);
  }
  /**
   * A user's graded trivia answers, only of questions whose window has ended: until then nobody learns whether an
   * answer was right (src/domain/trivia.ts).
   */
  get triviaSolutionsByUser() {
    return this.manyBy<Row>('triviaSolutionsByUser', 'triviaSolution', 'userId', [{ id: 'asc' }], {
      question: { endsAt: { lte: this.scope.now } },
    });
  }
  /** The viewer's own answer to each trivia question (none or one). */
  get ownTriviaAnswersByQuestion() {
    return this.manyBy<TriviaAnswerRow>('ownTriviaAnswersByQuestion', 'triviaAnswer', 'questionId', [{ id: 'asc' }], {
      userId: this.scope.viewerId ?? -1,
    });
  }
  /** The viewer's own graded answer to each trivia question (none or one); callers ask once the window has ended. */
  get ownTriviaSolutionsByQuestion() {
    return this.manyBy<TriviaSolutionRow>(
      'ownTriviaSolutionsByQuestion',
      'triviaSolution',
      'questionId',
      [{ id: 'asc' }],
      { userId: this.scope.viewerId ?? -1 },
    );
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
    // The usual request asks for one company: every row is its own, no need to fetch who takes part. Every
    // executed query of a player starts here, so it is plain SQL (the same rows as the findMany below).
    if (ids.length === 1) {
      const rows = await this.readRows<TournamentRow>(Prisma.sql`
        SELECT * FROM "Tournament" WHERE "deletedAt" IS NULL AND (
          "id" IN (SELECT "tournamentId" FROM "CompanyTournament" WHERE "companyId" = ${ids[0]})
          OR "ownerCompanyId" = ${ids[0]})
        ORDER BY "id" ASC`);
      return [rows];
    }
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
    return this.manyBy<PredictionRow>('visiblePredictionsByMatch', 'prediction', 'matchId', [{ id: 'asc' }], {
      user: { companyId: tenantId ?? -1 },
      OR: [{ userId: viewerId ?? -1 }, { match: { date: { lte: now } } }],
    });
  }

  get membershipsByRanking() {
    return this.manyBy<Row>(
      'membershipsByRanking',
      'internalRankingMembership',
      'rankingId',
      [{ id: 'asc' }],
      {},
      { shared: true },
    );
  }

  /** The viewer's dream-final picks per setting. */
  get ownDreamPicksBySetting() {
    return this.manyBy<Row>('ownDreamPicksBySetting', 'dreamFinalPick', 'settingId', [{ position: 'asc' }], {
      userId: this.scope.viewerId ?? -1,
    });
  }

  /** The viewer's own predictions of the matches. */
  get ownPredictionsByMatch() {
    const viewer = this.scope.viewerId ?? -1;
    return this.manyBy<PredictionRow>(
      'ownPredictionsByMatch',
      'prediction',
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
    return this.manyBy<PredictionRow>(
      'visiblePredictionsByUser',
      'prediction',
      'userId',
      [{ matchId: 'asc' }],
      { user: { companyId: tenantId ?? -1 }, OR: [{ userId: viewerId ?? -1 }, { match: { date: { lte: now } } }] },
      { ownedBy: (userIds) => userIds },
    );
  }

  get commentCountByPost() {
    return this.countBy('commentCountByPost', 'postComment', 'postId');
  }
  get likeCountByPost() {
    return this.countBy('likeCountByPost', 'postLike', 'postId');
  }
  get likeCountByComment() {
    return this.countBy('likeCountByComment', 'postCommentLike', 'commentId');
  }
  get postLikedByViewer() {
    return this.likedBy('postLikedByViewer', 'postLike', 'postId');
  }
  get commentLikedByViewer() {
    return this.likedBy('commentLikedByViewer', 'postCommentLike', 'commentId');
  }

  /** After a write: every cached answer may be stale. */
  clearAll(): void {
    for (const loader of this.loaders.values()) loader.clearAll();
  }
}

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
  TriviaAnswerRow,
  TriviaSolutionRow,
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
