// Process entry: config, database, app, listen, graceful shutdown. Everything it says is a JSON log line; a
// start-up failure is one line (on stderr) and exit 1.
//
// An ES module's static imports are all loaded before any of them runs. So this file imports statically only what
// reading the configuration needs: engine/runtime.ts may replace the process (and a static import of the app would have
// loaded its whole graph, about 1.7 s, for nothing), and a bad setting is reported without loading it either. The
// service's modules are imported once the configuration is known.
import './engine/runtime.ts';
import { onStopRequest } from './bootstrap/stop-requests.ts';
import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from './config.ts';
import { describeEnvFile, withEnvFile } from './env-file.ts';
import { firstLine, stackWithoutPasswords } from './first-line.ts';
import { createLogger, failureLogger } from './observability/logger.ts';
import type { Database } from './db/client.ts';
import type { Tracing } from './observability/tracing.ts';

/** One fatal line and exit 1; an unexpected error (not a bad setting or an absent database) keeps its stack in it. */
function fail(message: string, err?: unknown): never {
  if (err instanceof Error) failureLogger().fatal({ stack: stackWithoutPasswords(err) }, message);
  else failureLogger().fatal(message);
  process.exit(1);
}

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

const CLOSE_GRACE_MS = 10_000;

async function main() {
  let envFile;
  try {
    envFile = withEnvFile();
  } catch (err) {
    fail(`configuration error: ${firstLine(err)}`);
  }
  const { env, file } = envFile;
  let config;
  // Its notes are logged once the log level is known.
  const notes: string[] = [];
  try {
    config = loadConfig(env, (msg) => notes.push(msg));
  } catch (err) {
    // The file may be where the bad value came from: the one line says whether there was one.
    if (err instanceof ConfigError)
      fail(`configuration error: ${err.message}${file ? ` (${describeEnvFile(file)})` : ''}`);
    throw err;
  }
  const log = createLogger(config);
  for (const note of notes) log.info(note);

  const [
    { buildGateway },
    { setPasswordHashCost },
    { describeTarget },
    { prepareDatabase },
    { loggingSender, withLiveEvents },
    { notificationsTick },
  ] = await Promise.all([
    import('./gateway/build.ts'),
    import('./auth/passwords.ts'),
    import('./db/adapters.ts'),
    import('./bootstrap/prepare.ts'),
    import('./notifications/sender.ts'),
    import('./notifications/tick.ts'),
  ]);
  // Before the demo seed (prepareDatabase) hashes anything.
  setPasswordHashCost(config.passwordHashCost);

  // Loaded only when asked for: without OTEL_EXPORTER_OTLP_ENDPOINT no part of the SDK is imported.
  let tracing: Tracing | null = null;
  if (config.tracing) {
    const { startTracing } = await import('./observability/tracing-sdk.ts');
    tracing = await startTracing(config.tracing, VERSION, (msg) => log.warn(msg));
    log.info(
      {
        endpoint: withoutCredentials(config.tracing.endpoint),
        protocol: config.tracing.protocol,
        service: config.tracing.serviceName,
      },
      'tracing: spans are exported over OTLP',
    );
  }

  let db: Database;
  try {
    db = await prepareDatabase(config, log);
  } catch (err) {
    fail(`${describeTarget(config.database)}: ${firstLine(err)}`);
  }

  const app = await buildGateway({ config, db, logger: log, tracing });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    await db.close();
    fail(
      code === 'EADDRINUSE'
        ? `port ${config.port} on ${config.host} is already in use`
        : `cannot listen: ${firstLine(err)}`,
    );
  }
  app.log.info(
    {
      version: VERSION,
      database: db.description,
      env: config.env,
      envFile: describeEnvFile(file),
      tracing: config.tracing ? 'on' : 'off',
      // Which speed-only parts run (src/engine/README.md): a figure measured is only read with this next to it.
      engine: config.engine.mode,
      ...(config.engine.mode === 'full' && config.engine.off.length > 0 ? { engineOff: config.engine.off } : {}),
    },
    'prode gateway ready',
  );

  // Time-based notifications and delivery, then the e-mail outbox. Every instance ticks: the triggers run in one
  // per period (a lease), delivery in each (claimed messages). Each delivery is also a live event.
  const sender = withLiveEvents(
    // One line per notification at debug; the tick's summary below at info.
    loggingSender((obj, msg) => app.log.debug(obj, msg)),
    app.live,
  );
  // One tick at a time in a process: a long delivery is not joined by the next period's, which would only contend
  // for the same claims.
  let ticking = false;
  // A little under the period: a tick that fires a moment early in the next period still finds the lease free.
  const triggersLeaseMs = Math.round(config.notificationsIntervalSeconds * 900);
  const tick = () => {
    if (ticking) return;
    ticking = true;
    notificationsTick(db.prisma, sender, { triggersOncePerMs: triggersLeaseMs })
      .then((r) =>
        app.log[r.pendingPredictions || r.pendingDreamFinals || r.sent || r.failed ? 'info' : 'debug'](
          r,
          'notifications tick',
        ),
      )
      .catch((err) => app.log.error({ err }, 'notifications tick failed'))
      // E-mail queued by the tick, and any left from a failed try or another process's crash.
      .finally(() => {
        ticking = false;
        app.mail.wake();
        // Rescoring jobs due again after a failure, and any another process left behind.
        app.rescoring.wake();
      });
  };
  const timer =
    config.notificationsIntervalSeconds > 0 ? setInterval(tick, config.notificationsIntervalSeconds * 1000) : undefined;
  timer?.unref();

  // Runs once (onStopRequest): for SIGTERM, SIGINT or npm gone.
  const shutdown = async (reason: string) => {
    clearInterval(timer);
    // First keep serving while /readyz says 503, so a load balancer stops sending and requests already on the
    // wire (accepted but not yet parsed, which close() would drop with their idle-looking connection) are served.
    app.lifecycle.draining = true;
    app.log.info(`${reason}: draining for ${config.shutdownDelayMs} ms, then closing`);
    await new Promise((r) => setTimeout(r, config.shutdownDelayMs));
    // app.close() stops accepting connections and waits for in-flight requests to finish; a connection whose
    // client went quiet mid-request would hold it forever, so after a grace period the rest are cut.
    const grace = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
    grace.unref();
    await app.close();
    await db.close();
    // The spans of the last requests are still batched.
    await tracing?.shutdown().catch((err) => log.warn({ err: firstLine(err) }, 'tracing: last spans not exported'));
    process.exit(0);
  };
  onStopRequest(
    (reason) => void shutdown(reason),
    (signal) => {
      app.log.warn(`${signal} again: exiting without draining`);
      process.exit(1);
    },
  );
}

main().catch((err) => fail(firstLine(err), err));

/** A collector URL as logged: a user name or password in it stays out of the log. */
function withoutCredentials(endpoint: string): string {
  const url = new URL(endpoint);
  url.username = '';
  url.password = '';
  return url.toString();
}
