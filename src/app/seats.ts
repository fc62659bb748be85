// Seats: a company has at most maxUsersAmount active people unless it sets allowExceedMaxUsers. Every write that
// adds an active person (register, acceptInvitation, reactivation) takes its seat in its own transaction, counted
// under a lock of the company's row: of two writers counting at once on PostgreSQL, the second counts after the
// first commits. SQLite's transactions already run one at a time in the process.
import type { Db, Tx } from '../db/client.ts';
import type { CompanyRow } from '../db/rows.ts';
import { lockRowForCounting } from '../db/row-locks.ts';
import { Model } from '../db/typed-sql.ts';
import { forbidden } from '../domain/errors.ts';
import type { RequestScope } from './scope.ts';

type SeatRule = Pick<CompanyRow, 'id' | 'name' | 'maxUsersAmount' | 'allowExceedMaxUsers'>;

const full = (company: SeatRule) =>
  forbidden(`${company.name} has reached its maximum of ${company.maxUsersAmount} users`);

const activePeople = (db: Db | Tx, companyId: number) => db.user.count({ where: { companyId, deletedAt: null } });

/** Before costly work (a password hash): refuses when the company is full now. The write checks again. */
export async function refuseWhenFull(scope: RequestScope, company: SeatRule): Promise<void> {
  if (company.allowExceedMaxUsers) return;
  if ((await activePeople(scope.db, company.id)) >= company.maxUsersAmount) throw full(company);
}

/** In the transaction that adds an active person: locks the company's row, reads its rule afresh and counts. */
export async function takeSeat(scope: RequestScope, tx: Tx, companyId: number): Promise<void> {
  await lockRowForCounting(tx, scope.config.database.provider, Model.Company, companyId);
  const company = await tx.company.findUniqueOrThrow({
    where: { id: companyId },
    select: { id: true, name: true, maxUsersAmount: true, allowExceedMaxUsers: true },
  });
  if (company.allowExceedMaxUsers) return;
  if ((await activePeople(tx, company.id)) >= company.maxUsersAmount) throw full(company);
}
