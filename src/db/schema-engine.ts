// Prisma's schema engine, compiled to WebAssembly, driven through a driver adapter. This replaces the
// stock CLI's native engine, which this project cannot download (docs/design.md, "Prisma without its binary download").
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { adapterFactory, type DatabaseTarget } from './adapters.ts';

type Bg = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');
export type SchemaEngine = Awaited<ReturnType<Bg['SchemaEngine']['new']>>;

let loaded: Promise<Bg> | undefined;

/** Node 20 cannot import a .wasm module, so instantiate it by hand and hand it to the JS glue. */
function loadWasm(): Promise<Bg> {
  loaded ??= (async () => {
    const bg = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmFile = fileURLToPath(
      import.meta.resolve('@prisma/schema-engine-wasm/schema_engine_bg').replace(/\.js$/, '.wasm'),
    );
    const { instance } = await WebAssembly.instantiate(readFileSync(wasmFile), {
      './schema_engine_bg.js': bg as never,
    });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
    return bg;
  })();
  return loaded;
}

/**
 * Tables the gateway keeps outside the Prisma schema: SQLite's table versions (src/engine/cache/table-versions.ts).
 * PostgreSQL's live in the prode_meta schema, which Prisma does not look at.
 */
export function schemaFilters(provider: 'sqlite' | 'postgresql' | null) {
  return { externalTables: provider === 'sqlite' ? ['_prode_table_version'] : [], externalEnums: [] };
}

/** Runs `fn` with an engine connected to `target` (or to nothing, for schema-to-schema diffs). */
export async function withSchemaEngine<T>(
  target: DatabaseTarget | null,
  fn: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const bg = await loadWasm();
  const factory = target
    ? adapterFactory(target, { poolMax: 2 })
    : adapterFactory({ provider: 'sqlite', file: ':memory:' });
  // The engine opens connections through the factory but never closes them; an open SQLite connection
  // keeps its lock and the next engine times out. Record every adapter handed out and dispose it after.
  const opened: Array<{ dispose(): Promise<void> }> = [];
  const tracked = Object.assign(Object.create(Object.getPrototypeOf(factory)), factory, {
    connect: async () => track(await factory.connect()),
    connectToShadowDb: async () => track(await factory.connectToShadowDb()),
  }) as typeof factory;
  const track = <A extends { dispose(): Promise<void> }>(adapter: A): A => {
    opened.push(adapter);
    return patchCharColumns(adapter);
  };
  const bound = bindMigrationAwareSqlAdapterFactory(tracked);
  const logs: string[] = [];
  const engine = await bg.SchemaEngine.new({ datamodels: undefined }, (line: string) => logs.push(line), bound);
  try {
    return await fn(engine);
  } catch (err) {
    throw engineError(err);
  } finally {
    engine.free();
    await Promise.allSettled(opened.map((a) => a.dispose()));
  }
}

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/**
 * adapter-pg cannot map PostgreSQL's internal one-byte "char" type (OID 18), which the engine's catalog
 * queries select (e.g. pg_constraint.contype), so describing a PostgreSQL schema fails. Report such
 * columns as text: their values arrive as one-character strings either way.
 */
function patchCharColumns<A>(adapter: A): A {
  if ((adapter as { provider?: string }).provider !== 'postgres') return adapter;
  const queryable = adapter as unknown as {
    performIO?: (q: unknown) => Promise<{ fields: Array<{ dataTypeID: number }> }>;
  };
  const performIO = queryable.performIO?.bind(adapter);
  if (performIO) {
    queryable.performIO = async (query) => {
      const result = await performIO(query);
      for (const field of result.fields) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
      return result;
    };
  }
  return adapter;
}

/** The engine rejects with a JSON-ish object; turn it into an Error with the engine's own message. */
function engineError(err: unknown): Error {
  if (err instanceof Error) return err;
  const e = err as { message?: string; error_code?: string; meta?: unknown } | string;
  if (typeof e === 'string') return new Error(e);
  const msg = e?.message ?? JSON.stringify(e);
  return new Error(e?.error_code ? `${e.error_code}: ${msg}` : msg);
}
