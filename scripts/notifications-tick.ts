// `npm run notifications:tick`: runs the rescoring jobs that are due (results whose points are not out yet), then the
// notification triggers and delivery once, then sends the e-mail outbox (for cron, or by hand). The triggers run
// even if a server ran them this period (they are idempotent): no lease. Live subscribers are not told of rankings
// this moves (no live bus here); they see them on their next read.
import { loadConfig } from '../src/config.ts';
import { prepareDatabase } from '../src/bootstrap/prepare.ts';
import { mailChannel } from '../src/mail/channel.ts';
import { deliverEmails } from '../src/mail/delivery.ts';
import { loggingSender } from '../src/notifications/sender.ts';
import { notificationsTick } from '../src/notifications/tick.ts';
import { runDueRescores } from '../src/game/rescore-jobs.ts';

try {
  const config = loadConfig();
  const db = await prepareDatabase({ ...config, seedOnEmpty: false }, { info() {}, warn() {} });
  try {
    const { done, failed } = await runDueRescores(db.prisma, (job) =>
      console.error(`notifications:tick: rescoring match ${job.matchId} failed: ${job.error}`),
    );
    console.log(`notifications:tick: rescoring jobs ${JSON.stringify({ done, failed })}`);
  } catch (err) {
    // The notifications and e-mail still go out; the jobs wait for the next run.
    console.error(`notifications:tick: rescoring jobs failed: ${(err as Error).message.split('\n')[0]}`);
  }
  const result = await notificationsTick(
    db.prisma,
    loggingSender((obj, msg) => console.log(msg, JSON.stringify(obj))),
  );
  console.log(`notifications:tick: ${JSON.stringify(result)}`);
  const log = (obj: object, msg: string) => console.log(msg, JSON.stringify(obj));
  const channel = mailChannel(config.mail, log);
  if (channel) {
    const mail = { sent: 0, failed: 0 };
    for (
      let r = await deliverEmails(db.prisma, channel, log);
      r.sent + r.failed > 0;
      r = await deliverEmails(db.prisma, channel, log)
    ) {
      mail.sent += r.sent;
      mail.failed += r.failed;
      if (r.sent === 0) break; // only failures left: they wait for their retry
    }
    channel.close();
    console.log(`notifications:tick: e-mail ${JSON.stringify(mail)} through ${channel.description}`);
  } else {
    console.log('notifications:tick: no SMTP_URL: e-mail waits in the outbox');
  }
  await db.close();
  process.exit(0);
} catch (err) {
  console.error(`notifications:tick: failed: ${(err as Error).message.split('\n')[0]}`);
  process.exit(1);
}
