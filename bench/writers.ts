// The benchmark generators' writers: rows go in through the driver in large batches (Prisma's per-row overhead
// would make a million rows take minutes). SQLite: one prepared statement in one transaction per batch;
// PostgreSQL: multi-row INSERTs of up to 30,000 parameters. Explicit ids may be written: the PostgreSQL writer
// moves the table's sequence past them.
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseTarget } from '../src/db/adapters.ts';

export type Value = string | number | boolean | null;
export interface Writer {
  insert(table: string, columns: string[], rows: Value[][]): Promise<void>;
  close(): Promise<void>;
}

export const iso = (d: Date) => d.toISOString().replace('Z', '+00:00');

function sqliteWriter(file: string): Writer {
  const db = new Sqlite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  return {
    async insert(table, columns, rows) {
      const stmt = db.prepare(
        `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(',')}) VALUES ` +
          `(${columns.map(() => '?').join(',')})`,
      );
      db.transaction((all: Value[][]) => {
        for (const r of all) stmt.run(...r.map((v) => (typeof v === 'boolean' ? Number(v) : v)));
      })(rows);
    },
    async close() {
      db.close();
    },
  };
}

async function pgWriter(url: string): Promise<Writer> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async insert(table, columns, rows) {
      const per = Math.max(1, Math.floor(30000 / columns.length));
      for (let i = 0; i < rows.length; i += per) {
        const chunk = rows.slice(i, i + per);
        const values = chunk
          .map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(',')})`)
          .join(',');
        await client.query(
          `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(',')}) VALUES ${values}`,
          chunk.flat(),
        );
      }
      // Explicit ids were inserted: move the sequence past them.
      await client
        .query(
          `SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), (SELECT COALESCE(MAX(id), 1) FROM "${table}"))`,
        )
        .catch(() => {});
    },
    async close() {
      await client.end();
    },
  };
}

export function openWriter(target: DatabaseTarget): Promise<Writer> {
  return target.provider === 'sqlite' ? Promise.resolve(sqliteWriter(target.file)) : pgWriter(target.url);
}

function progress(label: string, done: number, total: number) {
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(`\r${label.padEnd(12)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
  if (done === total) process.stderr.write('\n');
}

export async function batched(
  writer: Writer,
  label: string,
  table: string,
  columns: string[],
  total: number,
  make: (i: number) => Value[],
) {
  const size = 20000;
  for (let i = 0; i < total; i += size) {
    const rows = [];
    for (let k = i; k < Math.min(total, i + size); k++) rows.push(make(k));
    await writer.insert(table, columns, rows);
    progress(label, Math.min(total, i + size), total);
  }
}
