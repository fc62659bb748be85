// E-mail is written to the outbox in the transaction of what causes it (a reset asked for, a notification
// delivered), so it is sent exactly when that commits; src/mail/delivery.ts sends it.
import type { Tx } from '../db/client.ts';
import type { MailMessage } from './channel.ts';

/** `kind` names the cause, for logs: passwordReset, emailVerification, notification:<type>. */
export async function queueEmail(tx: Tx, message: MailMessage & { kind: string }): Promise<void> {
  await tx.outgoingEmail.create({ data: message });
}
