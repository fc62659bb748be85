// Rows read straight from the driver adapter Prisma connected, each value converted once as $queryRaw converts it,
// past Prisma's raw-query pipeline. Why: docs/decisions/0005-loader-rows-past-prisma.md.
import { ColumnTypeEnum, type ArgType, type ColumnType, type SqlQueryable } from '@prisma/driver-adapter-utils';
import type { Prisma } from '../../generated/sqlite/client.ts';
import type { Provider } from '../../db/schema-files.ts';

/** Runs a read (not in a transaction of its own) and returns its rows as $queryRaw would. */
export type RowReader = <T>(query: Prisma.Sql) => Promise<T[]>;

/** A parameter the reader binds: what the loaders filter on. */
type Param = number | string | null | ReadonlyArray<number | string>;

type Convert = (value: unknown) => unknown;

const int32: Convert = (v) => Math.trunc(typeof v === 'number' ? v : Number(v));
const int64: Convert = (v) => (typeof v === 'number' ? BigInt(Math.trunc(v)) : BigInt(v as string));
const bool: Convert = (v) => (typeof v === 'boolean' ? v : typeof v === 'number' ? v === 1 : v === 'true' || v === '1');
const json: Convert = (v) => (typeof v === 'string' ? JSON.parse(v) : v);
// A timestamp with a time but no zone (SQLite's CURRENT_TIMESTAMP default, a row written by hand) is UTC, as
// findMany reads it; $queryRaw would read it in the server's time zone.
const HAS_TIME = /[T ]\d\d:\d\d/;
const ZONE = /(Z|[+-]\d\d(:?\d\d)?)$/i;
/** Whether a timestamp ends in a zone: the common endings (`Z`, `+00:00`) without a regular expression. */
function hasZone(v: string): boolean {
  const n = v.length;
  const last = v.charCodeAt(n - 1);
  if (last === 90 || last === 122) return true; // Z, z
  const sign = v.charCodeAt(n - 6);
  if (v.charCodeAt(n - 3) === 58 && (sign === 43 || sign === 45)) return true; // ±hh:mm
  return ZONE.test(v);
}
const dateTime: Convert = (v) =>
  new Date(typeof v === 'string' && !hasZone(v) && HAS_TIME.test(v) ? `${v}Z` : (v as string));

const time: Convert = (v) => new Date(`1970-01-01T${v as string}Z`);

/** How $queryRaw turns a value of the column type into JavaScript; null where it keeps the value as it is. */
function converter(type: ColumnType): Convert | null {
  switch (type) {
    case ColumnTypeEnum.Int32:
      return int32;
    case ColumnTypeEnum.Int64:
      return int64;
    case ColumnTypeEnum.Boolean:
      return bool;
    case ColumnTypeEnum.Json:
      return json;
    case ColumnTypeEnum.DateTime:
    case ColumnTypeEnum.Date:
      return dateTime;
    case ColumnTypeEnum.Time:
      return time;
    case ColumnTypeEnum.Float:
    case ColumnTypeEnum.Double:
    case ColumnTypeEnum.Character:
    case ColumnTypeEnum.Text:
    case ColumnTypeEnum.Enum:
    case ColumnTypeEnum.Set:
    case ColumnTypeEnum.Uuid:
    case ColumnTypeEnum.UnknownNumber:
      return null;
    default:
      // Decimals, bytes and arrays: no table has them. Loud, rather than a value that differs from Prisma's.
      throw new Error(`row reader: column type ${type} is not supported`);
  }
}

function argType(value: Param): ArgType {
  if (Array.isArray(value))
    return { arity: 'list', scalarType: value.length && typeof value[0] === 'string' ? 'string' : 'int' };
  return { arity: 'scalar', scalarType: typeof value === 'string' ? 'string' : 'int' };
}

const scalar = (v: unknown) => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

function param(value: unknown): Param {
  if (scalar(value) || (Array.isArray(value) && value.every((v) => v !== null && scalar(v)))) return value as Param;
  // Dates and booleans are bound differently per adapter: $queryRaw knows how.
  throw new Error(`row reader: cannot bind ${typeof value} parameters`);
}

export function rowReader(provider: Provider, queryable: () => Promise<SqlQueryable>): RowReader {
  return async <T>(query: Prisma.Sql): Promise<T[]> => {
    const args = query.values.map(param);
    const result = await (
      await queryable()
    ).queryRaw({
      // PostgreSQL numbers its placeholders ($1); SQLite takes them in order (?).
      sql: provider === 'postgresql' ? query.text : query.sql,
      args,
      argTypes: args.map(argType),
    });
    const build = rowBuilder(result.columnNames, result.columnTypes);
    const rows = new Array<T>(result.rows.length);
    for (let r = 0; r < rows.length; r++) rows[r] = build(result.rows[r]) as T;
    return rows;
  };
}

type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/** Builders by column names and types: a few dozen statements' worth, bounded against a runaway of ad hoc ones. */
const builders = new Map<string, RowBuilder>();
const MAX_BUILDERS = 500;

/**
 * A function building one row from its values: an object literal with every column in place and each value's
 * conversion inline, allocated once at its final size where a row grown key by key from `{}` reallocated its
 * property store on the way (on a result of 500 rows of 15 columns). Past MAX_BUILDERS column sets, rows are
 * assigned column by column rather than compiling a builder per query.
 */
export function rowBuilder(names: string[], types: ColumnType[]): RowBuilder {
  // JSON keeps names apart whatever characters they hold.
  const key = `${JSON.stringify(names)}${types.join(',')}`;
  let build = builders.get(key);
  if (build) return build;
  const converters = types.map(converter);
  // `__proto__` in a literal would set the prototype: such a column (none of ours) is defined as an own property.
  if (names.includes('__proto__') || builders.size >= MAX_BUILDERS)
    return (values) => assignRow(names, converters, values);
  const entries = names.map((name, i) =>
    converters[i] === null
      ? `${JSON.stringify(name)}: v[${i}]`
      : `${JSON.stringify(name)}: v[${i}] === null ? null : c[${i}](v[${i}])`,
  );
  const compiled = new Function('c', `return (v) => ({ ${entries.join(', ')} });`) as (c: unknown) => RowBuilder;
  build = compiled(converters);
  builders.set(key, build);
  return build;
}

function assignRow(names: string[], converters: (Convert | null)[], values: unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let c = 0; c < names.length; c++) {
    const value = values[c];
    const convert = converters[c];
    Object.defineProperty(row, names[c], {
      value: value === null || convert === null ? value : convert(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return row;
}

type Factory = { connect(): Promise<object> };

/**
 * Wraps the adapter factory handed to Prisma so the reader can use the adapter Prisma connected (after a disconnect,
 * the one it connects next).
 */
export function keepingConnected<F extends Factory>(factory: F): { factory: F; connected(): SqlQueryable | null } {
  let adapter: SqlQueryable | null = null;
  const wrapped = new Proxy(factory, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (prop !== 'connect') return typeof value === 'function' ? value.bind(obj) : value;
      return async () => {
        const connected = (await obj.connect()) as SqlQueryable & { dispose(): Promise<void> };
        adapter = connected;
        return new Proxy(connected, {
          get(a, p, r) {
            const v = Reflect.get(a, p, r);
            if (p === 'dispose')
              return () => {
                if (adapter === connected) adapter = null;
                return connected.dispose();
              };
            return typeof v === 'function' ? v.bind(a) : v;
          },
        });
      };
    },
  });
  return { factory: wrapped, connected: () => adapter };
}
