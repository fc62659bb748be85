// Names and rows of hand-written SQL, typed from the generated client: a table is named by its model
// (`Model.User`), a column by the model's scalar fields, so a misspelt table or column fails typecheck; each
// statement declares the row it returns (`shape`), which a test checks against both databases
// (test/db/typed-sql.test.ts). Why not Prisma's TypedSQL: docs/decisions/0026-typed-sql.md.
import { Prisma } from './sql.ts';

/** A client or a transaction (declared here, not imported: the engine's table lists import this file). */
export interface Queryable {
  $queryRaw<T = unknown>(query: Prisma.Sql): PromiseLike<T>;
}

/** The models' names, which are their tables' names (the schema maps none): `Model.TournamentStanding`. */
export const Model = Prisma.ModelName;
export type Model = Prisma.ModelName;

/** The scalar columns of a model, as the generated client names them. */
export type Column<M extends Model> = keyof Prisma.TypeMap['model'][M]['payload']['scalars'] & string;

/** A model's table, quoted: `"User"`; with an alias, `"User" u`. */
export function table(model: Model, alias?: string): Prisma.Sql {
  return Prisma.raw(alias === undefined ? `"${model}"` : `"${model}" ${alias}`);
}

/** A model's column, quoted and qualified by the table or by the alias given: `u."companyId"`. */
export function col<M extends Model>(model: M, column: Column<M>, alias?: string): Prisma.Sql {
  return Prisma.raw(`${alias ?? `"${model}"`}."${column}"`);
}

/**
 * A table under an alias in one statement: `${u}` writes `"User" u` (in FROM and JOIN), `u.c('name')` writes
 * `u."name"`, a column of that model only.
 */
export type Aliased<M extends Model> = Prisma.Sql & { readonly c: (column: Column<M>) => Prisma.Sql };

export function aliased<M extends Model>(model: M, alias: string): Aliased<M> {
  return Object.assign(table(model, alias), { c: (column: Column<M>) => col(model, column, alias) });
}

/**
 * A named row set of one statement (a WITH query, a subquery): `${s}` writes its name, `s.c('points')` one of the
 * columns its row declares, `s.names('points', 'name')` columns unqualified (a WITH query's column list).
 */
export type Derived<Row> = Prisma.Sql & {
  readonly c: (column: keyof Row & string) => Prisma.Sql;
  readonly names: (...columns: Array<keyof Row & string>) => Prisma.Sql;
};

export function derived<Row>(name: string): Derived<Row> {
  return Object.assign(Prisma.raw(name), {
    c: (column: keyof Row & string) => Prisma.raw(`${name}."${column}"`),
    names: (...columns: Array<keyof Row & string>) => Prisma.raw(columns.map((c) => `"${c}"`).join(', ')),
  });
}

/** How a column of a returned row is read into JavaScript; `?` when it may be null. */
export type Kind = 'number' | 'string' | 'boolean' | 'date' | 'number?' | 'string?' | 'date?';
export type Shape = Readonly<Record<string, Kind>>;

type Value<K extends Kind> = K extends 'number'
  ? number
  : K extends 'string'
    ? string
    : K extends 'boolean'
      ? boolean
      : K extends 'date'
        ? Date
        : K extends 'number?'
          ? number | null
          : K extends 'string?'
            ? string | null
            : Date | null;

/** The row a shape declares. */
export type RowOf<S extends Shape> = { -readonly [K in keyof S]: Value<S[K]> };

/** A statement that returns rows: its declared row, and the SQL for its arguments. */
export interface Query<S extends Shape, Args extends unknown[]> {
  readonly shape: S;
  readonly sql: (...args: Args) => Prisma.Sql;
}

export function query<S extends Shape, Args extends unknown[]>(
  shape: S,
  sql: (...args: Args) => Prisma.Sql,
): Query<S, Args> {
  return { shape, sql };
}

/**
 * Runs the statement and reads each row into its declared shape: PostgreSQL returns some numbers as bigint or
 * numeric text and SQLite returns booleans as 0 and 1, so every value is converted once, here.
 */
export async function rowsOf<S extends Shape, Args extends unknown[]>(
  db: Queryable,
  statement: Query<S, Args>,
  ...args: Args
): Promise<RowOf<S>[]> {
  return readRows(statement.shape, await db.$queryRaw<Record<string, unknown>[]>(statement.sql(...args)));
}

/** Rows as the database returned them, read into the shape. */
export function readRows<S extends Shape>(shape: S, raw: Record<string, unknown>[]): RowOf<S>[] {
  const keys = Object.entries(shape);
  return raw.map((r) => {
    const row: Record<string, unknown> = {};
    for (const [key, kind] of keys) row[key] = read(kind, r[key]);
    return row as RowOf<S>;
  });
}

function read(kind: Kind, value: unknown): unknown {
  if (value === null || value === undefined) return kind.endsWith('?') ? null : value;
  switch (kind) {
    case 'number':
    case 'number?':
      return Number(value);
    case 'boolean':
      return value === true || value === 1 || value === 1n;
    case 'date':
    case 'date?':
      return value instanceof Date ? value : new Date(String(value));
    default:
      return value;
  }
}

/**
 * What is wrong with a row as the database returned it, against the declared shape: a missing or extra column, or a
 * value of a kind the column cannot read (empty when the row fits). For the test that runs every statement.
 */
export function shapeProblems(shape: Shape, raw: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(raw)) if (!(key in shape)) problems.push(`${key}: not declared`);
  for (const [key, kind] of Object.entries(shape)) {
    if (!(key in raw)) {
      problems.push(`${key}: missing`);
      continue;
    }
    const value = raw[key];
    if (value === null) {
      if (!kind.endsWith('?')) problems.push(`${key}: null, declared ${kind}`);
      continue;
    }
    const fits =
      kind === 'boolean'
        ? typeof value === 'boolean' || value === 0 || value === 1 || value === 0n || value === 1n
        : kind.startsWith('number')
          ? typeof value === 'bigint' ||
            (typeof value !== 'boolean' && !(value instanceof Date) && Number.isFinite(Number(value)))
          : kind.startsWith('date')
            ? value instanceof Date || !Number.isNaN(Date.parse(String(value)))
            : typeof value === 'string';
    if (!fits) problems.push(`${key}: ${typeof value} ${String(value)}, declared ${kind}`);
  }
  return problems;
}

/** Some of a model's columns, quoted, unqualified, comma-separated: `"points", "exactHits"` (INSERT, SET). */
export function names<M extends Model>(_model: M, ...columns: Column<M>[]): Prisma.Sql {
  return Prisma.raw(columns.map((c) => `"${c}"`).join(', '));
}

/** A model's whole row, as Prisma's findMany builds it. */
export type ModelRow<M extends Model> = Prisma.TypeMap['model'][M]['payload']['scalars'];

/**
 * A statement that returns whole rows of one model (`SELECT "Company".*`): $queryRaw builds them as findMany does
 * (the test compares the two), so its row is the model's.
 */
export interface ModelQuery<M extends Model, Args extends unknown[]> {
  readonly model: M;
  readonly sql: (...args: Args) => Prisma.Sql;
}

export function modelQuery<M extends Model, Args extends unknown[]>(
  model: M,
  sql: (...args: Args) => Prisma.Sql,
): ModelQuery<M, Args> {
  return { model, sql };
}

/** Runs a statement of whole rows. */
export async function modelRowsOf<M extends Model, Args extends unknown[]>(
  db: Queryable,
  statement: ModelQuery<M, Args>,
  ...args: Args
): Promise<ModelRow<M>[]> {
  return db.$queryRaw<ModelRow<M>[]>(statement.sql(...args));
}

/**
 * The tables PostgreSQL's migrations keep outside the Prisma schema (schema prode_meta), each with its columns' kinds:
 * declared here since no model names them; the test reads them back from the database's catalogue.
 */
export const META_TABLES = {
  rate_limit: { key: 'string', count: 'number', reset_at: 'date' },
  lease: { name: 'string', holder: 'string', until: 'date' },
} as const satisfies Record<string, Shape>;
export type MetaTable = keyof typeof META_TABLES;
export type MetaColumn<T extends MetaTable> = keyof (typeof META_TABLES)[T] & string;

/**
 * A prode_meta table under an alias: `${r}` writes `prode_meta.rate_limit AS r` (INSERT takes an alias only after
 * AS), `r.c('count')` writes `r."count"`, `r.name('count')` the bare `"count"` (INSERT column lists, SET, ON
 * CONFLICT).
 */
export type AliasedMeta<T extends MetaTable> = Prisma.Sql & {
  readonly c: (column: MetaColumn<T>) => Prisma.Sql;
  readonly name: (...columns: MetaColumn<T>[]) => Prisma.Sql;
};

export function metaTable<T extends MetaTable>(name: T, alias: string): AliasedMeta<T> {
  return Object.assign(Prisma.raw(`prode_meta.${name} AS ${alias}`), {
    c: (column: MetaColumn<T>) => Prisma.raw(`${alias}."${column}"`),
    name: (...columns: MetaColumn<T>[]) => Prisma.raw(columns.map((c) => `"${c}"`).join(', ')),
  });
}
