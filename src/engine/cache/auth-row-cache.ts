// The rows authentication reads on every request (the token's user, the company the headers name), kept
// while the write counts of their tables hold (src/engine/cache/table-versions.ts): any committed write to users or companies,
// a user's deletion or a role change included, moves the token on and the rows are read again. Each entry is
// labelled with the token read before it was loaded, and served only to requests that read the same token.

/** The tables authentication reads: an answer built on cached auth rows depends on them too. */
export const AUTH_ROW_TABLES = ['User', 'Company'] as const;

/** Reads a row through the cache (or straight from the database when there is none). */
export type RowReader = <T>(key: string, load: () => Promise<T>) => Promise<T>;

export const uncachedRows: RowReader = (_key, load) => load();

/** Entries of one version at a time: a newer token replaces them all. */
const MAX_ENTRIES = 10_000;

export class AuthRowCache {
  private version: string | null = null;
  private readonly rows = new Map<string, unknown>();

  /** A reader for requests that read this data-version token before authenticating. */
  at(version: string): RowReader {
    return async <T>(key: string, load: () => Promise<T>): Promise<T> => {
      if (this.version === version && this.rows.has(key)) return this.rows.get(key) as T;
      const value = await load();
      if (this.version !== version || this.rows.size >= MAX_ENTRIES) {
        this.rows.clear();
        this.version = version;
      }
      this.rows.set(key, value);
      return value;
    };
  }
}
