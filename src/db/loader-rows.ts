// The reads the loaders (src/loaders/registry.ts) and authentication (src/auth/request-auth.ts) make on every request,
// as one interface with two implementations: Prisma's own reads here, and the engine's hand-written SQL
// (src/engine/db/loader-sql.ts), which src/engine/index.ts picks and openDatabase hands out (`loaderRowsOf`). Both
// return the same rows, in the same order, with the same value types (test/engine/db/loader-rows.test.ts).
import type { Prisma, PrismaClient } from '../generated/sqlite/client.ts';
import type { CompanyRow, TournamentRow, UserRow } from './rows.ts';

/** A model, spelt as its table (the schema maps no names). */
export type Model = Prisma.ModelName;
type Operations<M extends Model> = Prisma.TypeMap['model'][M]['operations'];
/** A row of the model, as findMany returns it. */
export type RowOf<M extends Model> = Prisma.TypeMap['model'][M]['payload']['scalars'];
/** A column of the model. */
export type Column<M extends Model> = keyof RowOf<M> & string;
export type FindManyArgs<M extends Model> = Operations<M>['findMany']['args'];
export type Where<M extends Model> = NonNullable<FindManyArgs<M>['where']>;
/** Columns equal to null, a whole number or a string: what both implementations compare. */
export type PlainWhere<M extends Model> = Partial<Record<Column<M>, number | string | null>>;
export type OrderBy<M extends Model> = ReadonlyArray<Partial<Record<Column<M>, 'asc' | 'desc'>>>;

/**
 * Models read by id together with the row a column of theirs points at (through the relation of that name), which
 * then primes that model's loader: a match's teams and their countries are one wave of statements, not two.
 */
export const READ_WITH = { Team: { parent: 'Country', key: 'countryId', relation: 'country' } } as const;
export type ReadWith = keyof typeof READ_WITH;
type ParentOf<M extends ReadWith> = (typeof READ_WITH)[M]['parent'];

export interface RowsIn<M extends Model> {
  model: M;
  key: Column<M>;
  keys: readonly number[];
  where?: PlainWhere<M>;
  orderBy?: OrderBy<M>;
  /** At most this many rows. */
  take?: number;
}

export interface LoaderRows {
  /** Rows whose `key` is one of `keys` and whose columns equal `where`'s values, in `orderBy` order. */
  rowsIn<M extends Model>(query: RowsIn<M>): Promise<RowOf<M>[]>;
  /** Rows by id, each with the row READ_WITH names (null where its column is). */
  rowsWithParent<M extends ReadWith>(
    model: M,
    ids: readonly number[],
    take?: number,
  ): Promise<Array<{ row: RowOf<M>; parent: RowOf<ParentOf<M>> | null }>>;
  /** How many rows each key has (keys without rows are left out). */
  countsBy<M extends Model>(model: M, key: Column<M>, keys: readonly number[]): Promise<Map<number, number>>;
  /** Those of `keys` that have a row whose `userId` is `userId` (a like by the viewer), in no given order. */
  keysWithUser<M extends Model>(model: M, key: Column<M>, userId: number, keys: readonly number[]): Promise<number[]>;
  /** The tournaments, not deleted, a company takes part in or owns, by id. */
  companyTournaments(companyId: number): Promise<TournamentRow[]>;
  /** The user, unless deleted or of a deleted company. */
  activeUser(id: number): Promise<UserRow | null>;
  /** A company by id, deleted or not. */
  companyById(id: number): Promise<CompanyRow | null>;
  /** The company not deleted whose id, custom domain or path is `value` (compared as given). */
  activeCompanyBy(column: 'id' | 'appCustomDomain' | 'appPath', value: number | string): Promise<CompanyRow | null>;
}

interface Delegate<M extends Model> {
  findMany(args: FindManyArgs<M>): Promise<RowOf<M>[]>;
  groupBy(args: object): Promise<Array<Record<string, unknown> & { _count: { _all: number } }>>;
}

/**
 * The model's delegate (`prisma.team` for `Team`). The one cast: TypeScript cannot index the client by a model
 * chosen at run time and keep each delegate's own argument types.
 */
function delegate<M extends Model>(prisma: PrismaClient, model: M): Delegate<M> {
  const key = `${model[0].toLowerCase()}${model.slice(1)}` as Uncapitalize<M>;
  return prisma[key] as unknown as Delegate<M>;
}

/** Prisma's findMany on the model. */
export function findRows<M extends Model>(prisma: PrismaClient, model: M, args: FindManyArgs<M>): Promise<RowOf<M>[]> {
  return delegate(prisma, model).findMany(args);
}

/** `where` as plain comparisons when it only compares columns with null, a whole number or a string; else null. */
export function plainWhere<M extends Model>(where: Where<M> | PlainWhere<M>): PlainWhere<M> | null {
  for (const value of Object.values(where))
    if (!(value === null || typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))))
      return null;
  return where as PlainWhere<M>;
}

/** The product's reads: Prisma's findMany, groupBy and findFirst. */
export function prismaLoaderRows(prisma: PrismaClient): LoaderRows {
  return {
    rowsIn: ({ model, key, keys, where = {}, orderBy = [], take }) =>
      findRows(prisma, model, {
        where: { ...where, [key]: { in: [...keys] } },
        orderBy: [...orderBy],
        ...(take === undefined ? {} : { take }),
      } as FindManyArgs<typeof model>),
    async rowsWithParent<M extends ReadWith>(model: M, ids: readonly number[], take?: number) {
      const { relation } = READ_WITH[model];
      // findMany puts the parent under its relation's name; the loaders want it apart.
      const rows = (await findRows(prisma, model, {
        where: { id: { in: [...ids] } },
        include: { [relation]: true },
        ...(take === undefined ? {} : { take }),
      } as FindManyArgs<M>)) as Array<Record<string, unknown>>;
      return rows.map(({ [relation]: parent, ...row }) => ({
        row: row as RowOf<M>,
        parent: parent as RowOf<ParentOf<M>> | null,
      }));
    },
    async countsBy(model, key, keys) {
      const groups = await delegate(prisma, model).groupBy({
        by: [key],
        where: { [key]: { in: [...keys] } },
        _count: { _all: true },
      });
      return new Map(groups.map((g) => [g[key] as number, g._count._all]));
    },
    async keysWithUser(model, key, userId, keys) {
      const rows = (await findRows(prisma, model, {
        where: { userId, [key]: { in: [...keys] } },
        select: { [key]: true },
      } as FindManyArgs<typeof model>)) as unknown as Array<Record<string, number>>;
      return rows.map((row) => row[key]);
    },
    companyTournaments: (companyId) =>
      prisma.tournament.findMany({
        where: { deletedAt: null, OR: [{ companies: { some: { companyId } } }, { ownerCompanyId: companyId }] },
        orderBy: [{ id: 'asc' }],
      }),
    activeUser: (id) => prisma.user.findFirst({ where: { id, deletedAt: null, company: { deletedAt: null } } }),
    companyById: (id) => prisma.company.findUnique({ where: { id } }),
    activeCompanyBy: (column, value) =>
      prisma.company.findFirst({ where: { [column]: value, deletedAt: null }, orderBy: { id: 'asc' } }),
  };
}
