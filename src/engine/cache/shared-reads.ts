// Loader results that depend on their keys alone, shared between response-cache misses that read the same table
// versions. Why: docs/decisions/0009-shared-reads-between-misses.md.
import type { TableVersions } from './table-versions.ts';
import { countTableRead } from '../../db/sql-stats.ts';

interface Shared {
  /** The table's version the value was read at. */
  tag: string;
  value: unknown;
  /** Rows it holds, against the bound. */
  rows: number;
}

/** A list longer than this is not shared: one would crowd out the rows of many small results. */
const MAX_SHARED_LIST = 1000;

/** Per process, bounded in rows (least recently used out first). */
export class SharedReads {
  private readonly entries = new Map<string, Shared>();
  private rows = 0;
  /** Results taken instead of a statement. */
  readonly stats = { taken: 0 };

  constructor(private readonly maxRows: number) {}

  get(key: string, tag: string): { value: unknown } | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.tag !== tag) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.stats.taken++;
    return { value: entry.value };
  }

  set(key: string, tag: string, value: unknown): void {
    const rows = Array.isArray(value) ? value.length : 1;
    if (rows > MAX_SHARED_LIST) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.rows -= old.rows;
    }
    // Handed to every request that takes it: nothing may change it in place.
    this.entries.set(key, { tag, value: deepFreeze(value), rows });
    this.rows += rows;
    for (const [k, e] of this.entries) {
      if (this.rows <= this.maxRows) break;
      this.entries.delete(k);
      this.rows -= e.rows;
    }
  }

  get size() {
    return { entries: this.entries.size, rows: this.rows };
  }
}

/** One request's use of the shared results, at the table versions its own response is computed under. */
export class RequestReads {
  private readonly tags = new Map<string, string>();
  private readonly read: Array<{ tables: readonly string[]; key: string; value: unknown }> = [];

  constructor(
    private readonly shared: SharedReads,
    private readonly versions: TableVersions,
  ) {}

  /** The shared result of `key` (a loader's name and key) read from `tables`, if one is held at their versions. */
  take(tables: readonly string[], key: string): { value: unknown } | undefined {
    const found = this.shared.get(key, this.tagOf(tables));
    // The request's response now depends on the tables as if a statement had read them.
    if (found) for (const table of tables) countTableRead(table);
    return found;
  }

  /** A result this request's statement read: shared once the request's response has passed its check (share). */
  readFrom(tables: readonly string[], key: string, value: unknown): void {
    this.read.push({ tables, key, value });
  }

  /** Called once nothing the request read was written while it was computed (src/engine/cache/response-cache.ts). */
  share(): void {
    for (const { tables, key, value } of this.read) this.shared.set(key, this.tagOf(tables), value);
    this.read.length = 0;
  }

  private tagOf(tables: readonly string[]): string {
    const names = tables.join(',');
    let tag = this.tags.get(names);
    if (tag === undefined) {
      tag = `${this.versions.of(tables)}|${this.versions.rollbacks}`;
      this.tags.set(names, tag);
    }
    return tag;
  }
}

function deepFreeze<T>(value: T): T {
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item === 'object' && item !== null) Object.freeze(item);
  }
  return typeof value === 'object' && value !== null ? Object.freeze(value) : value;
}
