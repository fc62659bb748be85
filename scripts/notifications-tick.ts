// `npm run notifications:tick`: runs the notification triggers and delivery once (for cron, or by hand).
import { loadConfig } from '../src/config.ts';
import { prepareDatabase } from '../src/bootstrap/prepare.ts';
import { loggingSender } from '../src/notifications/sender.ts';
import { notificationsTick } from '../src/notifications/tick.ts';

try {
  const config = loadConfig();
  const db = await prepareDatabase({ ...config, seedOnEmpty: false }, () => {});
  const result = await notificationsTick(
    db.prisma,
    loggingSender((obj, msg) => console.log(msg, JSON.stringify(obj))),
  );
  console.log(`notifications:tick: ${JSON.stringify(result)}`);
  await db.close();
  process.exit(0);
} catch (err) {
  console.error(`notifications:tick: failed: ${(err as Error).message.split('\n')[0]}`);
  process.exit(1);
}
