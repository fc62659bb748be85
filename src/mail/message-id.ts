// The Message-ID of an outbox row: the same on every send of that row, so a resend (the process stopped between
// the SMTP server's acceptance and the outbox update) is recognisable as the same message by mail servers and
// clients. The tag mixes in the row's creation time, so a database started over (ids from 1 again) does not reuse
// the ids of mail already sent.
import { createHash } from 'node:crypto';

/** `<outbox-<id>.<tag>@<domain of MAIL_FROM>>`. */
export function messageIdOf(row: { id: number; createdAt: Date }, from: string): string {
  const domain = /@([^\s@<>]+)>?$/.exec(from.trim())?.[1] ?? 'localhost';
  const tag = createHash('sha256').update(`${row.id}:${row.createdAt.toISOString()}`).digest('hex').slice(0, 16);
  return `<outbox-${row.id}.${tag}@${domain}>`;
}
