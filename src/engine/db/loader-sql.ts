// The loaders' and authentication's reads as hand-written SQL rather than Prisma's findMany, groupBy and findFirst:
// the same rows (test/engine/db/loader-rows.test.ts compares them) at well under half the cost per row, sent through
// the row reader (row-reader.ts) where it is on. Identifiers come from the models' names, never from a request.
// Why: docs/decisions/0005-loader-rows-past-prisma.md.
import type { Provider } from '../../db/schema-files.ts';
import { inKeys, Prisma } from '../../db/sql.ts';
import {
  READ_WITH,
  type ReadWith,
  type Column,
  type LoaderRows,
  type Model,
  type OrderBy,
  type PlainWhere,
  type RowOf,
} from '../../db/loader-rows.ts';
import type { TournamentRow } from '../../db/rows.ts';
import { aliased, col, Model as Models, modelQuery, table } from '../../db/typed-sql.ts';
import { activeCompanyBy, activeUser, companyById } from './auth-rows.ts';
import type { RowReader } from './row-reader.ts';

/** The models with a "userId" column (likes): the viewer's rows among them. */
type WithUser = { [M in Model]: 'userId' extends Column<M> ? M : never }[Model];

function conditions<M extends Model>(model: M, where: PlainWhere<M>): Prisma.Sql[] {
  // The keys of a PlainWhere<M> are columns of M; Object.entries widens them to strings.
  return (Object.entries(where) as Array<[Column<M>, unknown]>).map(([name, value]) => {
    if (value === null) return Prisma.sql`${col(model, name)} IS NULL`;
    if (typeof value === 'number' && Number.isInteger(value)) return Prisma.sql`${col(model, name)} = ${value}`;
    // As text: on PostgreSQL the column may be an enum (a user's role), which a text parameter does not compare with.
    if (typeof value === 'string') return Prisma.sql`CAST(${col(model, name)} AS TEXT) = ${value}`;
    throw new Error(`loader SQL: cannot compare ${name} with ${typeof value}`);
  });
}

function orderSql<M extends Model>(model: M, orderBy: OrderBy<M>): Prisma.Sql {
  const terms = orderBy
    .flatMap((o) => Object.entries(o) as Array<[Column<M>, 'asc' | 'desc']>)
    .map(([name, dir]) => Prisma.sql`${col(model, name)} ${Prisma.raw(dir === 'desc' ? 'DESC' : 'ASC')}`);
  return terms.length ? Prisma.sql`ORDER BY ${Prisma.join(terms)}` : Prisma.empty;
}

const limit = (take: number | undefined) => (take === undefined ? Prisma.empty : Prisma.sql`LIMIT ${take}`);

/** The tournaments, not deleted, a company takes part in or owns, by id. */
const tournamentsOf = modelQuery(Models.Tournament, (companyId: number) => {
  const [t, ct] = [aliased(Models.Tournament, 't'), aliased(Models.CompanyTournament, 'ct')];
  return Prisma.sql`
    SELECT t.* FROM ${t} WHERE ${t.c('deletedAt')} IS NULL AND (
      ${t.c('id')} IN (SELECT ${ct.c('tournamentId')} FROM ${ct} WHERE ${ct.c('companyId')} = ${companyId})
      OR ${t.c('ownerCompanyId')} = ${companyId})
    ORDER BY ${t.c('id')} ASC`;
});

/** The reads as SQL, sent by `read` (the row reader, or `$queryRaw` without it). */
export function sqlLoaderRows(provider: Provider, read: RowReader): LoaderRows {
  const keyIn = <M extends Model>(model: M, key: Column<M>, keys: readonly number[]) =>
    inKeys(provider, col(model, key), keys);
  return {
    rowsIn: ({ model, key, keys, where = {}, orderBy = [], take }) => {
      const filter = Prisma.join([keyIn(model, key, keys), ...conditions(model, where)], ' AND ');
      return read(Prisma.sql`SELECT * FROM ${table(model)} WHERE ${filter} ${orderSql(model, orderBy)} ${limit(take)}`);
    },
    async rowsWithParent(model, ids, take) {
      const m: ReadWith = model;
      const { parent, key } = READ_WITH[m];
      // Aliased `Country.id`, ...: no column of ours has a dot in its name.
      const prefix = `${parent}.`;
      const selected = Object.values(Prisma[`${parent}ScalarFieldEnum`]).map(
        (c) => Prisma.sql`${col(parent, c)} AS ${Prisma.raw(`"${prefix}${c}"`)}`,
      );
      const joined = await read<Record<string, unknown>>(Prisma.sql`
        SELECT ${table(m)}.*, ${Prisma.join(selected)} FROM ${table(m)}
        LEFT JOIN ${table(parent)} ON ${col(parent, 'id')} = ${col(m, key)}
        WHERE ${inKeys(provider, col(m, 'id'), ids)} ${limit(take)}`);
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
        SELECT ${col(model, key)} AS "key", CAST(COUNT(*) AS INTEGER) AS "count" FROM ${table(model)}
        WHERE ${keyIn(model, key, keys)} GROUP BY ${col(model, key)}`);
      return new Map(groups.map((g) => [Number(g.key), Number(g.count)]));
    },
    async keysWithUser<M extends Model>(model: M, key: Column<M>, userId: number, keys: readonly number[]) {
      // Asked only of like tables, which name their liker userId.
      const userColumn = col(model as Model as WithUser, 'userId');
      const rows = await read<{ key: number }>(Prisma.sql`
        SELECT ${col(model, key)} AS "key" FROM ${table(model)}
        WHERE ${userColumn} = ${userId} AND ${keyIn(model, key, keys)}`);
      return rows.map((r) => Number(r.key));
    },
    // Every executed query of a player starts here.
    companyTournaments: (companyId) => read<TournamentRow>(tournamentsOf.sql(companyId)),
    activeUser: (id) => activeUser(read, id),
    companyById: (id) => companyById(read, id),
    activeCompanyBy: (column, value) => activeCompanyBy(read, column, value),
  };
}

/** This file's fixed statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const loaderSql = { tournamentsOf };
