// Whether the database has space for writes. Every statement the driver adapter runs is watched: one that fails for
// want of space (isStorageFull) marks the database full, and it stays so until a probe write of fresh pages commits
// (probe: run by readiness while the mark is set, never while the database is healthy).
import { isStorageFull } from './errors.ts';

export class StorageWatch {
  /** Set by a write that failed for want of space; cleared by a probe write that commits. */
  full: { since: Date } | null = null;

  failed(err: unknown) {
    if (!this.full && isStorageFull(err)) this.full = { since: new Date() };
  }
}

const WATCHED = new Set(['queryRaw', 'executeRaw', 'commit']);

function watching<T extends object>(target: T, watch: StorageWatch): T {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (typeof value !== 'function') return value;
      if (WATCHED.has(prop as string)) {
        return (...args: unknown[]) =>
          (value.apply(obj, args) as Promise<unknown>).catch((err: unknown) => {
            watch.failed(err);
            throw err;
          });
      }
      if (prop === 'startTransaction') {
        return async (...args: unknown[]) => watching((await value.apply(obj, args)) as object, watch);
      }
      return value.bind(obj);
    },
  });
}

/** Wraps a Prisma driver adapter factory so that a statement failing for want of space marks the watch. */
export function watchingStorage<F extends { connect(): Promise<object> }>(factory: F, watch: StorageWatch): F {
  return new Proxy(factory, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (prop === 'connect') return async () => watching(await obj.connect(), watch);
      return typeof value === 'function' ? value.bind(obj) : value;
    },
  });
}
