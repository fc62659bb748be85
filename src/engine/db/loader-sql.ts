// The loaders' and authentication's reads as hand-written SQL rather than Prisma's findMany, groupBy and findFirst:
// the same rows (test/engine/db/loader-rows.test.ts compares them) at well under half the cost per row, sent through
// the row reader (row-reader.ts) where it is on. Identifiers come from the models' names, never from a request.
// Why: docs/decisions/0005-loader-rows-past-prisma.md.
import type { Provider } from '../../db/schema-files.ts';
import { inKeys, Prisma } from '../../db/sql.ts';
import {
  READ_WITH,
  type Column,
  type LoaderRows,
  type Model,
  type OrderBy,
  type PlainWhere,
  type RowOf,
} from '../../db/loader-rows.ts';
import type { TournamentRow } from '../../db/rows.ts';
import { activeCompanyBy, activeUser, companyById } from './auth-rows.ts';
import type { RowReader } from './row-reader.ts';

const table = (model: Model) => Prisma.raw(`"${model}"`);
const column = (name: string) => Prisma.raw(`"${name}"`);

function conditions<M extends Model>(where: PlainWhere<M>): Prisma.Sql[] {
  return Object.entries(where).map(([name, value]) => {
    if (value === null) return Prisma.sql`${column(name)} IS NULL`;
    if (typeof value === 'number' && Number.isInteger(value)) return Prisma.sql`${column(name)} = ${value}`;
    // As text: on PostgreSQL the column may be an enum (a user's role), which a text parameter does not compare with.
    if (typeof value === 'string') return Prisma.sql`CAST(${column(name)} AS TEXT) = ${value}`;
    throw new Error(`loader SQL: cannot compare ${name} with ${typeof value}`);
  });
}

function orderSql<M extends Model>(orderBy: OrderBy<M>): Prisma.Sql {
  const terms = orderBy
    .flatMap((o) => Object.entries(o))
    .map(([name, dir]) => Prisma.sql`${column(name)} ${Prisma.raw(dir === 'desc' ? 'DESC' : 'ASC')}`);
  return terms.length ? Prisma.sql`ORDER BY ${Prisma.join(terms)}` : Prisma.empty;
}

const limit = (take: number | undefined) => (take === undefined ? Prisma.empty : Prisma.sql`LIMIT ${take}`);

/** The reads as SQL, sent by `read` (the row reader, or `$queryRaw` without it). */
export function sqlLoaderRows(provider: Provider, read: RowReader): LoaderRows {
  const keyIn = (key: string, keys: readonly number[]) => inKeys(provider, column(key), keys);
  return {
    rowsIn: ({ model, key, keys, where = {}, orderBy = [], take }) => {
      const filter = Prisma.join([keyIn(key, keys), ...conditions(where)], ' AND ');
      return read(Prisma.sql`SELECT * FROM ${table(model)} WHERE ${filter} ${orderSql(orderBy)} ${limit(take)}`);
    },
    async rowsWithParent(model, ids, take) {
      const { parent, key } = READ_WITH[model];
      // Aliased `Country.id`, ...: no column of ours has a dot in its name.
      const prefix = `${parent}.`;
      const selected = Object.values(Prisma[`${parent}ScalarFieldEnum`]).map((c) =>
        Prisma.raw(`"${parent}"."${c}" AS "${prefix}${c}"`),
      );
      const joined = await read<Record<string, unknown>>(Prisma.sql`
        SELECT "${Prisma.raw(model)}".*, ${Prisma.join(selected)} FROM "${Prisma.raw(model)}"
        LEFT JOIN "${Prisma.raw(parent)}" ON "${Prisma.raw(parent)}"."id" = "${Prisma.raw(model)}"."${Prisma.raw(key)}"
        WHERE ${inKeys(provider, Prisma.raw(`"${model}"."id"`), ids)} ${limit(take)}`);
      return joined.map((values) => {
        const row: Record<string, unknown> = {};
        const parentRow: Record<string, unknown> = {};
        for (const name in values) {
          if (name.startsWith(prefix)) parentRow[name.slice(prefix.length)] = values[name];
          else row[name] = values[name];
        }
        return {
          row: row as RowOf<typeof model>,
          parent: parentRow.id === null ? null : (parentRow as RowOf<typeof parent>),
        };
      });
    },
    async countsBy<M extends Model>(model: M, key: Column<M>, keys: readonly number[]) {
      const groups = await read<{ key: number; count: number }>(Prisma.sql`
        SELECT ${column(key)} AS "key", CAST(COUNT(*) AS INTEGER) AS "count" FROM ${table(model)}
        WHERE ${keyIn(key, keys)} GROUP BY ${column(key)}`);
      return new Map(groups.map((g) => [Number(g.key), Number(g.count)]));
    },
    async keysWithUser<M extends Model>(model: M, key: Column<M>, userId: number, keys: readonly number[]) {
      const rows = await read<{ key: number }>(Prisma.sql`
        SELECT ${column(key)} AS "key" FROM ${table(model)} WHERE "userId" = ${userId} AND ${keyIn(key, keys)}`);
      return rows.map((r) => Number(r.key));
    },
    // Every executed query of a player starts here.
    companyTournaments: (companyId) =>
      read<TournamentRow>(Prisma.sql`
        SELECT * FROM "Tournament" WHERE "deletedAt" IS NULL AND (
          "id" IN (SELECT "tournamentId" FROM "CompanyTournament" WHERE "companyId" = ${companyId})
          OR "ownerCompanyId" = ${companyId})
        ORDER BY "id" ASC`),
    activeUser: (id) => activeUser(read, id),
    companyById: (id) => companyById(read, id),
    activeCompanyBy: (column, value) => activeCompanyBy(read, column, value),
  };
}
