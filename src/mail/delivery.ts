// Sends what the outbox holds. E-mails are claimed in small batches before they are sent (src/db/claims.ts: one
// process wins each), so two gateway processes, or a tick and a wake-up, never send one at the same time. A claim is
// a lease: a process that dies mid-send leaves the e-mail to be retried once the lease ends (at least once; every
// send of a row carries the same Message-ID, src/mail/message-id.ts, so a resend is recognisable).
import { claimInBatches, takeClaimed } from '../db/claims.ts';
import { SerialRuns } from '../lib/serial-runs.ts';
import type { Db } from '../db/client.ts';
import type { OutgoingEmailRow } from '../db/rows.ts';
import { Model } from '../db/typed-sql.ts';
import { withoutEmailAddresses } from '../observability/redact.ts';
import type { MailChannel, MailLog } from './channel.ts';

const LEASE_MS = 60_000;
/** Claimed at a time; each message's lease is renewed right before it is sent (takeClaimed). */
const CLAIM_BATCH = 10;
const MAX_ATTEMPTS = 5;
/** A failed e-mail waits this long times its attempts before the next try. */
const RETRY_BACKOFF_MS = 30_000;
/** E-mails one deliverEmails call sends at most. */
const DELIVERY_ROUND = 100;

export interface DeliveryReport {
  sent: number;
  failed: number;
}

/** Sends up to `limit` claimable e-mails, oldest first. */
export async function deliverEmails(
  db: Db,
  channel: MailChannel,
  log: MailLog,
  limit = DELIVERY_ROUND,
): Promise<DeliveryReport> {
  const report = { sent: 0, failed: 0 };
  const batches = claimInBatches(db, Model.OutgoingEmail, { limit, batchSize: CLAIM_BATCH, leaseMs: LEASE_MS });
  for await (const { ids, until } of batches) {
    for (const email of await db.outgoingEmail.findMany({ where: { id: { in: ids } }, orderBy: { id: 'asc' } })) {
      if (!(await takeClaimed(db, Model.OutgoingEmail, email.id, until, LEASE_MS))) continue; // the lease ran out
      if (await sendOne(db, channel, email, log)) report.sent++;
      else report.failed++;
    }
  }
  return report;
}

/**
 * Round after round until the outbox is drained: a round that is not full found nothing more to claim (a failed
 * e-mail waits for its retry, so failures do not keep it going). `stopping` ends it between rounds (shutdown).
 */
export async function drainOutbox(
  db: Db,
  channel: MailChannel,
  log: MailLog,
  stopping: () => boolean = () => false,
): Promise<DeliveryReport> {
  const report = { sent: 0, failed: 0 };
  let round;
  do {
    round = await deliverEmails(db, channel, log);
    report.sent += round.sent;
    report.failed += round.failed;
  } while (round.sent + round.failed === DELIVERY_ROUND && !stopping());
  return report;
}

async function sendOne(db: Db, channel: MailChannel, email: OutgoingEmailRow, log: MailLog): Promise<boolean> {
  try {
    await channel.send(email);
    await db.outgoingEmail.update({
      where: { id: email.id },
      // The text goes: it may hold a live link (reset, verification, invitation), which the database must not keep.
      data: { status: 'SENT', sentAt: new Date(), attempts: { increment: 1 }, claimedUntil: null, text: '' },
    });
    return true;
  } catch (err) {
    const attempts = email.attempts + 1;
    const lastError = String((err as Error).message ?? err).slice(0, 500);
    await db.outgoingEmail.update({
      where: { id: email.id },
      data: {
        attempts,
        lastError,
        status: attempts >= MAX_ATTEMPTS ? 'FAILED' : 'PENDING',
        ...(attempts >= MAX_ATTEMPTS ? { text: '' } : {}),
        claimedUntil: new Date(Date.now() + RETRY_BACKOFF_MS * attempts),
      },
    });
    // An SMTP server's refusal often quotes the recipient: the row's id says which e-mail, the address stays out.
    log(
      'warn',
      { emailId: email.id, kind: email.kind, attempts, err: withoutEmailAddresses(lastError) },
      'e-mail not sent',
    );
    return false;
  }
}

/**
 * The process's sender: woken after a write that queued e-mail (so a reset link arrives in seconds, not at the
 * next tick) and by the tick. Runs one delivery at a time; a wake-up during one runs another after it.
 */
export class MailDelivery {
  private readonly runs = new SerialRuns(() => this.deliver());
  private closing = false;

  constructor(
    private readonly db: Db,
    /** null: e-mail cannot leave (no SMTP outside development); it waits in the outbox. */
    readonly channel: MailChannel | null,
    private readonly log: MailLog,
  ) {}

  /** Starts a delivery unless one runs; never throws (failures are logged and retried later). */
  wake(): void {
    if (this.channel) this.runs.wake();
  }

  /** Resolves once the delivery under way (and any it asked for) has finished. */
  idle(): Promise<void> {
    return this.runs.idle();
  }

  private async deliver(): Promise<void> {
    try {
      const report = await drainOutbox(this.db, this.channel!, this.log, () => this.closing);
      if (report.sent || report.failed) this.log('info', report, 'e-mail delivery');
    } catch (err) {
      this.log('warn', { err: String((err as Error).message ?? err).split('\n')[0] }, 'e-mail delivery failed');
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.idle();
    this.channel?.close();
  }
}
