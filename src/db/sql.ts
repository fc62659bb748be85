// The SQL helpers (Prisma.sql, Prisma.join, Prisma.empty, Prisma.raw) for statements written by hand: the same for
// both providers, so code above the store needs no generated client of its own.
export { Prisma } from '../generated/sqlite/client.ts';
