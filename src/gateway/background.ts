// The work the gateway runs beside requests, started with it and stopped when it closes: the company sizes the cost
// estimates read, e-mail delivery, the live feed and the rescoring jobs.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { firstLine } from '../first-line.ts';
import { RescoreRunner } from '../app/rescore-runner.ts';
import { pendingRescores } from '../game/rescore-jobs.ts';
import { CompanySizes } from '../graphql/company-sizes.ts';
import type { LiveBus } from '../live/bus.ts';
import { openLiveBus } from '../live/open-bus.ts';
import { mailChannel, type MailLog } from '../mail/channel.ts';
import { MailDelivery } from '../mail/delivery.ts';
import type { Metrics } from '../observability/metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends the e-mail outbox; the notifications tick wakes it too. */
    mail: MailDelivery;
    /** The live feed: delivered notifications are published on it (src/server.ts). */
    live: LiveBus;
    /** Runs the rescoring jobs results leave behind; the notifications tick wakes it too. */
    rescoring: RescoreRunner;
  }
}

export interface BackgroundWork {
  companySizes: CompanySizes;
  mail: MailDelivery;
  live: LiveBus;
  rescoring: RescoreRunner;
}

export async function startBackgroundWork(
  app: FastifyInstance,
  config: Config,
  db: Database,
  metrics: Metrics,
): Promise<BackgroundWork> {
  const companySizes = new CompanySizes(db.prisma, (err) =>
    app.log.warn({ err: firstLine(err) }, 'cost estimates: cannot count company sizes'),
  );
  await companySizes.start();
  app.addHook('onClose', async () => companySizes.stop());
  const mailLog: MailLog = (level, obj, msg) => app.log[level](obj, msg);
  const mail = new MailDelivery(db.prisma, mailChannel(config.mail, mailLog), mailLog);
  if (!mail.channel) app.log.warn('no SMTP_URL: e-mail waits in the outbox until one is set');
  else app.log.info({ mail: mail.channel.description }, 'e-mail goes out through this channel');
  app.decorate('mail', mail);
  app.addHook('onClose', async () => mail.close());
  const live = await openLiveBus(config.database, db.prisma, (level, obj, msg) => app.log[level](obj, msg), {
    rankingIntervalMs: config.live.rankingIntervalMs,
    resumeWindowMs: config.live.resumeWindowMs,
  });
  app.decorate('live', live);
  app.addHook('onClose', async () => live.close());
  const rescoring = new RescoreRunner(db.prisma, live, (level, obj, msg) => app.log[level](obj, msg));
  app.decorate('rescoring', rescoring);
  // A job under way finishes (its transaction is not cut); none starts after.
  app.addHook('onClose', async () => rescoring.close());
  metrics.watch('rescoring', () => rescoring.figures);
  metrics.watch('rescoreQueue', () => pendingRescores(db.prisma));
  // Jobs left by a process that stopped before running them.
  rescoring.wake();
  return { companySizes, mail, live, rescoring };
}
