// The audit trail: every privileged change in a company (a prediction entered for a player, a result, the scoring
// settings, a role, the company's settings, a person deactivated, reactivated or deleted) leaves an entry, written
// by the operation in the transaction of its change, so neither exists without the other. Read newest first by the
// company's admins, its reseller and managers (auditLog); never by players.
import type { Tx } from '../db/client.ts';
import type { MatchRow } from '../db/rows.ts';
import type { AuditKind } from '../db/enums.ts';
import { AUDIT_KINDS, auditValues, type AuditKindName } from '../domain/audit.ts';
import { badInput } from '../domain/errors.ts';
import { paging } from '../domain/paging.ts';
import type { RequestScope } from './scope.ts';

export interface AuditDraft {
  kind: AuditKindName;
  /** The company whose data changed; null for a result of a global tournament (every company playing it reads it). */
  companyId: number | null;
  tournamentId?: number | null;
  actorId: number;
  targetUserId?: number | null;
  reason?: string | null;
  /** The changed values; secrets are dropped here whatever is passed (src/domain/audit.ts). */
  before?: unknown;
  after?: unknown;
}

/** A match's result as an audit entry shows it. */
export const auditedResult = (m: MatchRow) => ({
  matchId: m.id,
  status: m.status,
  homeTeamGoals: m.homeTeamGoals,
  awayTeamGoals: m.awayTeamGoals,
  homeTeamFullTimeGoals: m.homeTeamFullTimeGoals,
  awayTeamFullTimeGoals: m.awayTeamFullTimeGoals,
  homeTeamPenaltyGoals: m.homeTeamPenaltyGoals,
  awayTeamPenaltyGoals: m.awayTeamPenaltyGoals,
});

/** Writes the entry in the change's own transaction, at the request's time. */
export async function recordAudit(tx: Tx, now: Date, draft: AuditDraft): Promise<void> {
  const json = (value: unknown) => (value === undefined || value === null ? {} : { value: auditValues(value) });
  const before = json(draft.before);
  const after = json(draft.after);
  await tx.auditEntry.create({
    data: {
      kind: draft.kind as AuditKind,
      companyId: draft.companyId,
      tournamentId: draft.tournamentId ?? null,
      at: now,
      actorId: draft.actorId,
      targetUserId: draft.targetUserId ?? null,
      reason: draft.reason ?? null,
      // A JSON column left out is NULL: Prisma takes no plain null for one.
      ...('value' in before ? { before: before.value as never } : {}),
      ...('value' in after ? { after: after.value as never } : {}),
    },
  });
}

export interface AuditLogArgs {
  skip?: number | null;
  take?: number | null;
  kind?: string | null;
  /** Entries about this person or made by them. */
  userId?: number | null;
}

/**
 * A page of the company's entries, newest first, and how many there are in all: its own, and the results of the
 * global tournaments it plays.
 */
export async function auditLog(scope: RequestScope, args: AuditLogArgs) {
  const { tenant } = scope.requireRole(
    'admin',
    "only the company's admins, its reseller and managers read its audit log",
  );
  const page = paging(args.skip, args.take);
  if (args.kind != null && !(AUDIT_KINDS as readonly string[]).includes(args.kind))
    throw badInput(`kind must be one of ${AUDIT_KINDS.join(', ')}`, 'kind');
  const played = await scope.db.companyTournament.findMany({
    where: { companyId: tenant.id },
    select: { tournamentId: true },
  });
  const where = {
    AND: [
      {
        OR: [{ companyId: tenant.id }, { companyId: null, tournamentId: { in: played.map((p) => p.tournamentId) } }],
      },
      args.kind == null ? {} : { kind: args.kind as AuditKind },
      args.userId == null ? {} : { OR: [{ targetUserId: args.userId }, { actorId: args.userId }] },
    ],
  };
  const [total, entries] = await Promise.all([
    scope.db.auditEntry.count({ where }),
    scope.db.auditEntry.findMany({
      where,
      orderBy: [{ at: 'desc' }, { id: 'desc' }],
      skip: page.skip,
      take: page.take,
    }),
  ]);
  return { total, entries };
}
