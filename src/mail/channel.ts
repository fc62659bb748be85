// The one way e-mail leaves: SMTP when SMTP_URL is set; in development without it, a folder of .eml files a
// newcomer can open (the path of each account e-mail is logged); otherwise none, and e-mail waits in the outbox
// (src/mail/outbox.ts) until a server is configured.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import nodemailer from 'nodemailer';
import type { MailConfig } from '../config.ts';
import { messageIdOf } from './message-id.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** A message of the outbox (src/mail/outbox.ts): its row's id and creation time name it. */
export type OutboxMessage = MailMessage & { id: number; createdAt: Date };

export interface MailChannel {
  /** Where mail goes, for logs: "smtp://host:port", "folder /data/mail". */
  readonly description: string;
  /** Sends an outbox row (`kind` its cause, src/mail/outbox.ts); its Message-ID is derived from the row
   *  (src/mail/message-id.ts), the same on a resend. */
  send(message: OutboxMessage & { kind?: string }): Promise<void>;
  close(): void;
}

export type MailLog = (level: 'debug' | 'info' | 'warn', obj: object, msg: string) => void;

/** The channel MailConfig asks for, or null when e-mail cannot leave (no SMTP outside development). */
export function mailChannel(config: MailConfig, log: MailLog): MailChannel | null {
  if (config.smtpUrl) return smtpChannel(config.smtpUrl, config.from, config.messageIdKey);
  if (config.folder) return folderChannel(config.folder, config.from, config.messageIdKey, log);
  return null;
}

function smtpChannel(url: string, from: string, idKey: Buffer): MailChannel {
  // A pool: one connection carries many messages instead of a handshake each.
  // Timeouts well under delivery's one-minute claim, so a slow server cannot outlast it and be sent to twice.
  const timeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
  const transport = nodemailer.createTransport(url, { pool: true, maxConnections: 2, ...timeouts } as never);
  const { protocol, hostname, port } = new URL(url);
  return {
    description: `${protocol}//${hostname}${port ? `:${port}` : ''}`,
    async send(message) {
      const { to, subject, text } = message;
      await transport.sendMail({ from, to, subject, text, messageId: messageIdOf(message, from, idKey) });
    },
    close: () => transport.close(),
  };
}

function folderChannel(folder: string, from: string, idKey: Buffer, log: MailLog): MailChannel {
  // nodemailer builds the message as an SMTP server would receive it; the folder keeps it as an .eml file.
  const build = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    description: `folder ${folder}`,
    async send(message) {
      const { id, kind, to, subject, text } = message;
      const built = await build.sendMail({ from, to, subject, text, messageId: messageIdOf(message, from, idKey) });
      mkdirSync(folder, { recursive: true });
      const file = join(folder, `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}.eml`);
      writeFileSync(file, built.message as Buffer, { mode: 0o600 });
      // A link to open matters for an account e-mail (a reset, an invitation); notifications come by the hundred.
      // The row's id, never the address, says which message it is.
      log(
        kind?.startsWith('notification:') ? 'debug' : 'info',
        { emailId: id, kind, subject, file: pathToFileURL(file).href },
        'e-mail written (no SMTP_URL): open it from this link',
      );
    },
    close: () => build.close(),
  };
}
