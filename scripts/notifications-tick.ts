// `npm run notifications:tick`: runs the rescoring jobs that are due (results whose points are not out yet), then the
// notification triggers and delivery once, then sends the e-mail outbox (for cron, or by hand). The triggers run
// even if a server ran them this period (they are idempotent): no lease. Live subscribers are not told of rankings
// this moves (no live bus here); they see them on their next read.
// It logs as the server does (LOG_LEVEL, LOG_FORMAT): one summary line with the counts at info, a line per
// notification and per e-mail at debug, failures at warn and error.
import { ConfigError, loadConfig } from '../src/config.ts';
import { prepareDatabase } from '../src/bootstrap/prepare.ts';
import { mailChannel } from '../src/mail/channel.ts';
import { drainOutbox } from '../src/mail/delivery.ts';
import { loggingSender } from '../src/notifications/sender.ts';
import { notificationsTick } from '../src/notifications/tick.ts';
import { runDueRescores } from '../src/game/rescore-jobs.ts';
import { createLogger } from '../src/observability/logger.ts';

let config;
const notes: string[] = [];
try {
  config = loadConfig(undefined, (msg) => notes.push(msg));
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`notifications:tick: configuration error: ${err.message}`);
  process.exit(1);
}
const log = createLogger(config);
for (const note of notes) log.info(note);
try {
  const db = await prepareDatabase({ ...config, seedOnEmpty: false }, { info() {}, warn() {} });
  let rescoring: { done: number; failed: number } | null = null;
  try {
    rescoring = await runDueRescores(db.prisma, (job) =>
      log.error({ matchId: job.matchId, err: job.error }, 'rescoring job failed; it will be retried'),
    );
  } catch (err) {
    // The notifications and e-mail still go out; the jobs wait for the next run.
    log.error({ err: (err as Error).message.split('\n')[0] }, 'rescoring jobs failed');
  }
  const notifications = await notificationsTick(
    db.prisma,
    loggingSender((obj, msg) => log.debug(obj, msg)),
  );
  const mailLog = (level: 'debug' | 'info' | 'warn', obj: object, msg: string) => log[level](obj, msg);
  const channel = mailChannel(config.mail, mailLog);
  let mail = null;
  if (channel) {
    mail = { ...(await drainOutbox(db.prisma, channel, mailLog)), through: channel.description };
    channel.close();
  } else {
    log.warn('no SMTP_URL: e-mail waits in the outbox until one is set');
  }
  log.info({ rescoring, ...notifications, mail }, 'notifications tick');
  await db.close();
  process.exit(0);
} catch (err) {
  log.error({ err: (err as Error).message.split('\n')[0] }, 'notifications tick failed');
  process.exit(1);
}
