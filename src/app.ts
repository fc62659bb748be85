// The HTTP app: security headers, CORS and rate limits first; then GraphQL at /graphql, the REST routes, docs,
// health probes and metrics.
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import { normalizeIP } from '@fastify/rate-limit';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Config } from './config.ts';
import { firstLine } from './first-line.ts';
import type { Database } from './db/client.ts';
import { runWithSqlStats, type SqlStats } from './db/sql-stats.ts';
import { AuthRowCache } from './engine/cache/auth-row-cache.ts';
import { setPasswordWorkLimits } from './auth/passwords.ts';
import { createApollo } from './graphql/apollo.ts';
import { getSchema } from './graphql/schema.ts';
import { CompanySizes } from './graphql/company-sizes.ts';
import { costPlugin } from './graphql/cost-plugin.ts';
import { documentNestingPreHandler } from './graphql/input-limits.ts';
import { textInputsPlugin } from './graphql/text-inputs.ts';
import { TrustedDocuments } from './graphql/trusted-documents.ts';
import { contextOf, type ClientInfo } from './graphql/context.ts';
import { hidesStatementCount } from './http/account-privacy.ts';
import { openRequestScope, tenantHeaders, type ScopeSources } from './http/request-scope.ts';
import { registerUtf8Bodies } from './engine/http/utf8-bodies.ts';
import { engineFor } from './engine/index.ts';
import { costMemo } from './engine/graphql/cost-memo.ts';
import { registerAccountPages } from './http/account-pages.ts';
import { ResponseCache, responseCachePlugin } from './engine/cache/response-cache.ts';
import { Metrics } from './observability/metrics.ts';
import { newOutcome } from './observability/request-outcome.ts';
import { registerMetricsRoute } from './observability/metrics-route.ts';
import { createLogger, type LogStream } from './observability/logger.ts';
import { registerRequestLog } from './observability/request-log.ts';
import {
  registerHttpSpans,
  traceIdOf,
  traceRootResolvers,
  traceSqlStatements,
  tracingPlugin,
  type Tracing,
} from './observability/tracing.ts';
import { registerAnswerSizeLimit } from './security/answer-size.ts';
import { registerSecurity } from './security/http-security.ts';
import { loginThrottleFor } from './security/throttle-for-store.ts';
import { mailChannel, type MailLog } from './mail/channel.ts';
import type { LiveBus } from './live/bus.ts';
import { openLiveBus } from './live/open-bus.ts';
import { startLiveServer } from './graphql/live-server.ts';
import type { IncomingMessage } from 'node:http';
import { MailDelivery } from './mail/delivery.ts';
import { RescoreRunner } from './app/rescore-runner.ts';
import { pendingRescores } from './game/rescore-jobs.ts';
import { registerRequestDeadline } from './security/request-deadline.ts';
import { registerDocs } from './rest/docs.ts';
import { registerExplorer } from './graphql/explorer.ts';
import { errorBody } from './http/error-body.ts';
import { trackRouteMethods } from './rest/allowed-methods.ts';
import { registerErrorHandlers, registerRestRoutes } from './rest/routes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    sqlStats: SqlStats;
  }
  interface FastifyInstance {
    /** Set on shutdown: /readyz answers 503 and answers ask clients to close their connections. */
    lifecycle: { draining: boolean };
    /** Sends the e-mail outbox; the notifications tick wakes it too. */
    mail: MailDelivery;
    /** The live feed: delivered notifications are published on it (src/server.ts). */
    live: LiveBus;
    /** Runs the rescoring jobs results leave behind; the notifications tick wakes it too. */
    rescoring: RescoreRunner;
  }
}

export interface AppDeps {
  config: Config;
  db: Database;
  /** The process's logger (src/server.ts logs start-up through the same one); made from the config if absent. */
  logger?: FastifyBaseLogger;
  /** Where JSON log lines go (default stdout) when no logger is given; tests read them. */
  logStream?: LogStream;
  /** OpenTelemetry, when OTEL_EXPORTER_OTLP_ENDPOINT is set (src/observability/tracing-sdk.ts). */
  tracing?: Tracing | null;
}

const READY_TIMEOUT_MS = 2000;
/** Password-reset requests per client address and e-mail per window (ten times that per address). */
const RESET_REQUESTS_MAX = 3;
const RESET_REQUESTS_WINDOW_MS = 15 * 60_000;
const READY_CACHE_MS = 1000;

export async function buildApp({ config, db, logger, logStream, tracing }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger ?? createLogger(config, logStream),
    // One line per request, written when it is answered (src/observability/request-log.ts), instead of Fastify's
    // "incoming request" and "request completed" pair.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.http.bodyLimitBytes,
    // Socket-level deadline for clients that trickle their request; the whole-request one is registerRequestDeadline.
    requestTimeout: config.http.requestTimeoutMs,
    // X-Forwarded-For is believed only for the configured number of proxy hops (rate limits key on the address).
    trustProxy: (_address: string, hop: number) => hop < config.http.trustProxyHops,
    // Invitation tokens travel in the path (GET /invitations/jwt/:jwt) and are longer than the default 100.
    routerOptions: { maxParamLength: 2048 },
    requestIdHeader: 'x-request-id',
    // URLs the router cannot decode, parameters over maxParamLength: the documented error body.
    frameworkErrors: (err, _request, rawReply) => {
      const reply = rawReply as unknown as FastifyReply;
      reply
        .code(400)
        .type('application/json')
        .send(
          errorBody(
            400,
            'BAD_USER_INPUT',
            err.code === 'FST_ERR_BAD_URL'
              ? 'the URL is not valid (bad percent-encoding)'
              : 'a path parameter is too long',
          ),
        );
    },
    // Requests Node's HTTP parser refuses (malformed, headers over 16 KiB): the documented error body too.
    clientErrorHandler: (err: Error & { code?: string }, socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_HEADERS_TIMEOUT';
      const [status, reason, message] = timedOut
        ? [408, 'Request Timeout', 'the request took too long to arrive']
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'Request Header Fields Too Large', 'the request headers are too large']
          : [400, 'Bad Request', 'the request is not valid HTTP'];
      const body = JSON.stringify(
        errorBody(status as number, timedOut ? 'REQUEST_TIMEOUT' : 'BAD_USER_INPUT', message as string),
      );
      socket.end(
        `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ` +
          `${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      // Destroyed only if the client does not close its side: destroying at once, with the rest of its request
      // unread, makes the kernel send a reset that can discard the answer before the client reads it.
      const timer = setTimeout(() => socket.destroy(), 2000);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
    },
    // Draining is ours (server.ts): Fastify's own 503 while closing would answer without the documented body.
    return503OnClosing: false,
    genReqId: () => crypto.randomUUID(),
  });

  // Every statement Prisma sends while serving this request is counted in this request's store.
  app.decorate('lifecycle', { draining: false });
  const metrics = new Metrics();
  app.addHook('onClose', async () => metrics.close());
  const loginThrottle = loginThrottleFor(db, 'login', config.rateLimit.loginMax, config.rateLimit.loginWindowMs);
  const resetThrottle = loginThrottleFor(db, 'reset', RESET_REQUESTS_MAX, RESET_REQUESTS_WINDOW_MS);
  const { registerMax, registerWindowMs, loginMax, loginWindowMs } = config.rateLimit;
  const registerThrottle = loginThrottleFor(db, 'register', registerMax, registerWindowMs);
  const tokenThrottle = loginThrottleFor(db, 'token', loginMax, loginWindowMs);
  setPasswordWorkLimits(config.passwordWork);
  // IPv6 clients are keyed by their /64, as the general rate limit does: one host owns a whole /64. A client that
  // hung up while its request waited has no address any more (the socket is closed): those share one key.
  const clientOf = (request: FastifyRequest): ClientInfo => ({
    ip: normalizeIP(request.ip ?? 'unknown'),
    loginThrottle,
    resetThrottle,
    registerThrottle,
    tokenThrottle,
    outcome: request.outcome,
  });

  // Which speed-only parts run (ENGINE, ENGINE_OFF): the seams below each ask it.
  const engine = engineFor(config);

  // First, so the request's span is the context of every later hook, the handler and its SQL statements.
  if (tracing) {
    registerHttpSpans(app, tracing.tracer);
    traceSqlStatements(tracing.tracer, db.provider);
    traceRootResolvers(getSchema(engine.leanResolvers), tracing.tracer);
  }
  app.decorateRequest('sqlStats', null as unknown as SqlStats);
  app.decorateRequest('outcome', null as unknown as ReturnType<typeof newOutcome>);
  app.addHook('onRequest', (request, _reply, done) => {
    request.sqlStats = { statements: 0, tables: new Set() };
    request.outcome = newOutcome();
    runWithSqlStats(request.sqlStats, done);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (app.lifecycle.draining) reply.header('connection', 'close');
    return payload;
  });
  registerRequestLog(app, tracing ? traceIdOf : undefined);
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest({
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
      statements: request.sqlStats?.statements ?? 0,
      outcome: request.outcome ?? newOutcome(),
    });
  });
  // Before any route, so every route is in the table a wrong method's 405 answers from.
  const allowedMethods = trackRouteMethods(app);
  registerRequestDeadline(app, config.http.requestTimeoutMs);
  await registerSecurity(app, config, db);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (config.sqlStats) {
      const { cost, objects, rootFields } = request.outcome ?? {};
      if (!hidesStatementCount(rootFields)) reply.header('x-sql-statements', String(request.sqlStats?.statements ?? 0));
      if (cost !== undefined) reply.header('x-query-cost', String(Math.round(Math.min(cost, Number.MAX_SAFE_INTEGER))));
      if (objects !== undefined) reply.header('x-objects', String(objects));
    }
  });

  const responseCache = engine.responseCache ? new ResponseCache(config.responseCacheBytes) : null;
  const authRows = responseCache ? new AuthRowCache() : null;
  if (db.provider === 'postgresql') metrics.watch('preparedStatements', () => db.preparedStatements());
  if (responseCache) {
    metrics.watch('responseCache', () => ({
      ...responseCache.stats,
      ...responseCache.size,
      sharedTaken: responseCache.reads.stats.taken,
      sharedRows: responseCache.reads.size.rows,
    }));
  }
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
  const live = await openLiveBus(config.database, db.prisma, (level, obj, msg) => app.log[level](obj, msg));
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
  const sources: ScopeSources = { db, config, authRows, mail, live, rescoring };
  const trusted = config.graphql.persistedOperationsOnly ? TrustedDocuments.load() : null;
  if (trusted) app.log.info({ operations: trusted.size }, 'PERSISTED_OPERATIONS_ONLY: only manifest operations run');
  const apollo = createApollo(
    config,
    app.log,
    metrics,
    [
      fastifyApolloDrainPlugin(app),
      textInputsPlugin(),
      costPlugin(config.graphql.maxCost, companySizes, engine.costMemo ? costMemo() : null),
      ...(responseCache ? [responseCachePlugin(responseCache, db)] : []),
      ...(tracing ? [tracingPlugin(tracing.tracer)] : []),
    ],
    trusted,
  );
  await apollo.start();
  // Not stopped from app.close(): its drain plugin itself calls fastify.close(), which would wait on itself.
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    // Apollo answers no HEAD; without this Fastify would route one to it and Allow would list HEAD.
    exposeHeadRoute: false,
    // A document nested too deep is refused before the parser (recursive) reads it; then the trusted-document check.
    preHandler: [documentNestingPreHandler(), ...(trusted ? [trusted.preHandler()] : [])],
    handler: fastifyApolloHandler(apollo, {
      // Auth failures, outages included, are kept in the context and thrown by the resolvers' guards, where
      // formatError maps an outage to SERVICE_UNAVAILABLE.
      context: async (request) => contextOf(await openRequestScope(sources, tenantHeaders(request)), clientOf(request)),
    }),
  });
  if (config.live.maxSockets > 0) {
    const sockets = startLiveServer(app.server, {
      config,
      log: app.log,
      sources,
      sizes: companySizes,
      trusted,
      client: (ip) => ({ ip, loginThrottle, resetThrottle, registerThrottle, tokenThrottle, outcome: newOutcome() }),
      addressOf: (request) => normalizeIP(forwardedAddress(request, config.http.trustProxyHops)),
      draining: () => app.lifecycle.draining,
    });
    // Before the listener closes: open sockets would keep app.close() waiting.
    app.addHook('preClose', async () => sockets.close());
    metrics.watch('live', () => ({ ...sockets.figures(), ...live.stats }));
  }
  registerRestRoutes(app, { apollo, sources, clientOf });
  registerAnswerSizeLimit(app, config.graphql.maxResponseBytes);
  if (engine.utf8Bodies) registerUtf8Bodies(app); // after the size limit, so an answer it refuses is never encoded
  registerDocs(app);
  registerAccountPages(app); // what the links of our e-mails open where APP_URL is the gateway
  // The offline GraphQL explorer goes with Sandbox: both are for people trying the API, and off in production.
  if (config.graphql.sandbox) registerExplorer(app);
  registerErrorHandlers(app, allowedMethods);
  if (config.metrics.enabled) registerMetricsRoute(app, metrics, config.metrics.token, config.env === 'production');

  // Liveness: the process answers. Never touches the database, so a slow store does not get us restarted.
  app.get('/healthz', { config: { rateLimit: false } }, async () => ({ status: 'ok' }));

  // Readiness: the database answers a trivial query within a short deadline; on SQLite, it has space for writes
  // again after one failed for want of space (a probe write, made only then); on PostgreSQL, the live feed's
  // listening connection is up. The answer names each check that failed.
  // One probe answers every request for a second, so a flood of /readyz (it is not rate limited) cannot tie up the
  // pool; the live feed's state is read as it is.
  let lastProbe: { at: number; result: Promise<ReadinessProblem[]> } | null = null;
  const probe = async (): Promise<ReadinessProblem[]> => {
    try {
      await withTimeout(db.ping(), READY_TIMEOUT_MS);
    } catch (err) {
      app.log.warn({ err: firstLine(err) }, 'readiness: the database does not answer');
      return [{ check: 'database', message: 'the database does not answer' }];
    }
    const full = db.storageFull();
    if (!full) return [];
    try {
      await withTimeout(db.probeStorage(), READY_TIMEOUT_MS);
      app.log.info({ fullSince: full.since }, 'readiness: the database has space for writes again');
      return [];
    } catch (err) {
      app.log.warn({ err: firstLine(err), fullSince: full.since }, 'readiness: the database is still full');
      return [{ check: 'storage', message: 'the database has no space left for writes' }];
    }
  };
  const probed = () => {
    if (!lastProbe || Date.now() - lastProbe.at > READY_CACHE_MS) lastProbe = { at: Date.now(), result: probe() };
    return lastProbe.result;
  };
  app.get('/readyz', { config: { rateLimit: false } }, async (_request, reply) => {
    if (app.lifecycle.draining) {
      reply.code(503);
      return { status: 'draining', database: db.provider };
    }
    const problems = [...(await probed())];
    if (!live.listening)
      problems.push({ check: 'liveFeed', message: 'the live feed is not listening (its LISTEN connection is down)' });
    if (problems.length === 0) return { status: 'ready', database: db.provider };
    reply.code(503);
    return {
      status: 'unavailable',
      database: db.provider,
      failing: problems.map((p) => p.check),
      message: problems.map((p) => p.message).join('; '),
    };
  });

  return app;
}

interface ReadinessProblem {
  check: 'database' | 'storage' | 'liveFeed';
  message: string;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The client address of a request Fastify does not route (a WebSocket upgrade), believing X-Forwarded-For for
 * `hops` proxies exactly as the HTTP routes do (trustProxy in buildApp).
 */
function forwardedAddress(request: IncomingMessage, hops: number): string {
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const chain = [request.socket.remoteAddress ?? 'unknown', ...forwarded.reverse()];
  return chain[Math.min(hops, chain.length - 1)];
}
