// The stored vocabularies (roles, statuses, ...), as the Prisma schema declares them: the same for both providers.
export * from '../generated/sqlite/enums.ts';
