// The token's user and the company the headers name, read with hand-written SQL rather than findFirst; the rows are
// the objects findFirst builds. Why: docs/decisions/0005-loader-rows-past-prisma.md.
import type { CompanyRow, UserRow } from '../../db/rows.ts';
import { Prisma } from '../../db/sql.ts';
import { aliased, Model, modelQuery, type Column } from '../../db/typed-sql.ts';
import type { RowReader } from './row-reader.ts';

const u = aliased(Model.User, 'u');
const c = aliased(Model.Company, 'c');

/** The user, unless deleted or of a deleted company. */
const activeUserRow = modelQuery(
  Model.User,
  (id: number) => Prisma.sql`
    SELECT u.* FROM ${u} JOIN ${c} ON ${c.c('id')} = ${u.c('companyId')}
    WHERE ${u.c('id')} = ${id} AND ${u.c('deletedAt')} IS NULL AND ${c.c('deletedAt')} IS NULL`,
);

/** A company by id, deleted or not. */
const companyRow = modelQuery(
  Model.Company,
  (id: number) => Prisma.sql`SELECT c.* FROM ${c} WHERE ${c.c('id')} = ${id}`,
);

/** The company not deleted whose `column` is `value`, compared as given. */
const activeCompanyRow = modelQuery(
  Model.Company,
  (column: Column<typeof Model.Company>, value: number | string) => Prisma.sql`
    SELECT c.* FROM ${c} WHERE ${c.c(column)} = ${value} AND ${c.c('deletedAt')} IS NULL
    ORDER BY ${c.c('id')} LIMIT 1`,
);

export async function activeUser(read: RowReader, id: number): Promise<UserRow | null> {
  const rows = await read<UserRow>(activeUserRow.sql(id));
  return rows[0] ?? null;
}

export async function companyById(read: RowReader, id: number): Promise<CompanyRow | null> {
  const rows = await read<CompanyRow>(companyRow.sql(id));
  return rows[0] ?? null;
}

/** The company not deleted whose id, custom domain or path is `value` (compared as given). */
export async function activeCompanyBy(
  read: RowReader,
  column: 'id' | 'appCustomDomain' | 'appPath',
  value: number | string,
): Promise<CompanyRow | null> {
  const rows = await read<CompanyRow>(activeCompanyRow.sql(column, value));
  return rows[0] ?? null;
}

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const authRowSql = { activeUserRow, companyRow, activeCompanyRow };
