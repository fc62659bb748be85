// The rows authentication reads on every request, cached under the users' and companies' table versions and returned
// only to requests that read the same versions. Why: docs/decisions/0010-auth-row-cache.md.
import { Model } from '../../db/typed-sql.ts';

/** The tables authentication reads: a response built on cached auth rows depends on them too. */
export const AUTH_ROW_TABLES = [Model.User, Model.Company] as const;

/** Reads a row through the cache (or straight from the database when there is none). */
export type RowReader = <T>(key: string, load: () => Promise<T>) => Promise<T>;

export const uncachedRows: RowReader = (_key, load) => load();

/** Entries of one version at a time: a newer token replaces them all. */
const MAX_ENTRIES = 10_000;

export class AuthRowCache {
  private version: string | null = null;
  /** Reads done or in flight: one in flight serves every request of its versions that asks meanwhile. */
  private readonly rows = new Map<string, Promise<unknown>>();

  /**
   * A reader for requests that read this data-version token before authenticating. A burst of requests of one
   * caller (a thousand subscriptions opened at once by reconnecting clients) reads each row once, and they all hold
   * the same row object. A failed read is not kept.
   */
  at(version: string): RowReader {
    return <T>(key: string, load: () => Promise<T>): Promise<T> => {
      const held = this.version === version ? this.rows.get(key) : undefined;
      if (held) return held as Promise<T>;
      const loading = load();
      if (this.version !== version || this.rows.size >= MAX_ENTRIES) {
        this.rows.clear();
        this.version = version;
      }
      this.rows.set(key, loading);
      loading.catch(() => {
        if (this.rows.get(key) === loading) this.rows.delete(key);
      });
      return loading;
    };
  }
}
