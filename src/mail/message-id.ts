// The Message-ID of an outbox row: the same on every send of that row, so a resend (the process stopped between
// the SMTP server's acceptance and the outbox update) is recognisable as the same message by mail servers and
// clients. It is a keyed hash of the row's id and creation time: a recipient learns nothing from it (the id is
// one counter for every company, so showing it would tell how much mail the service sends), and a database
// started over (ids from 1 again) does not reuse the Message-IDs of mail already sent.
import { createHmac } from 'node:crypto';

/** `<32 hex digits@domain of MAIL_FROM>`: HMAC-SHA256 under `key` (MailConfig.messageIdKey) of the row's id and
 *  creation time. */
export function messageIdOf(row: { id: number; createdAt: Date }, from: string, key: Buffer): string {
  const domain = /@([^\s@<>]+)>?$/.exec(from.trim())?.[1] ?? 'localhost';
  const tag = createHmac('sha256', key).update(`${row.id}:${row.createdAt.toISOString()}`).digest('hex');
  return `<${tag.slice(0, 32)}@${domain}>`;
}
