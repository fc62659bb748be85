// The HTTP gateway: one Fastify instance serving GraphQL at /graphql, the REST routes, docs, account pages, health
// probes and metrics. This file composes the parts of src/gateway/ in the order that matters: the hooks every request
// goes through first (tracing, counters, security, rate limits), then the work run beside requests, then the routes.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { setPasswordWorkLimits } from '../auth/passwords.ts';
import { engineFor } from '../engine/index.ts';
import { registerExplorer } from '../graphql/explorer.ts';
import { registerAccountPages } from '../http/account-pages.ts';
import { registerSsoRoutes } from '../http/sso-routes.ts';
import { logProviderFailuresTo } from '../auth/oidc.ts';
import type { ScopeSources } from '../http/request-scope.ts';
import { createLogger, type LogStream } from '../observability/logger.ts';
import { Metrics } from '../observability/metrics.ts';
import { registerMetricsRoute } from '../observability/metrics-route.ts';
import type { Tracing } from '../observability/tracing.ts';
import { trackRouteMethods } from '../rest/allowed-methods.ts';
import { getSchema } from '../graphql/schema.ts';
import { registerDocs } from '../rest/docs.ts';
import { registerExportRoutes } from '../rest/exports.ts';
import { registerErrorHandlers, registerRestRoutes } from '../rest/routes.ts';
import { registerResponseSizeLimit } from '../security/response-size.ts';
import { registerSecurity } from '../security/http-security.ts';
import { registerRequestDeadline } from '../security/request-deadline.ts';
import { startBackgroundWork } from './background.ts';
import { openCaches } from './caches.ts';
import { clientsOf } from './clients.ts';
import { createFastify } from './fastify.ts';
import { registerGraphqlRoute } from './graphql-route.ts';
import { registerProbes } from './readiness.ts';
import { registerResponseHeaders, registerRequestHooks, registerTracing } from './request-hooks.ts';
import { registerSubscriptions } from './subscriptions.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set on shutdown: /readyz returns 503 and responses ask clients to close their connections. */
    lifecycle: { draining: boolean };
  }
}

export interface GatewayDeps {
  config: Config;
  db: Database;
  /** The process's logger (src/server.ts logs start-up through the same one); made from the config if absent. */
  logger?: FastifyBaseLogger;
  /** Where JSON log lines go (default stdout) when no logger is given; tests read them. */
  logStream?: LogStream;
  /** OpenTelemetry, when OTEL_EXPORTER_OTLP_ENDPOINT is set (src/observability/tracing-sdk.ts). */
  tracing?: Tracing | null;
}

export async function buildGateway({ config, db, logger, logStream, tracing }: GatewayDeps): Promise<FastifyInstance> {
  const app = createFastify(config, logger ?? createLogger(config, logStream));
  logProviderFailuresTo((detail, message) => app.log.warn(detail, message));
  app.decorate('lifecycle', { draining: false });
  const metrics = new Metrics();
  app.addHook('onClose', async () => metrics.close());
  const clients = clientsOf(config, db);
  setPasswordWorkLimits(config.passwordWork);
  // Which speed-only parts run (ENGINE, ENGINE_OFF): the seams below each ask it.
  const engine = engineFor(config);

  if (tracing) registerTracing(app, tracing, db, engine);
  registerRequestHooks(app, metrics, tracing ?? null, engine.responseCache);
  // Before any route, so every route is in the table a wrong method's 405 reads its methods from.
  const allowedMethods = trackRouteMethods(app);
  registerRequestDeadline(app, config.http.requestTimeoutMs);
  await registerSecurity(app, config, db);
  registerResponseHeaders(app, config.sqlStats);

  if (db.provider === 'postgresql') metrics.watch('preparedStatements', () => db.preparedStatements());
  const { responseCache, authRows } = openCaches(engine, config, metrics);
  const { companySizes, mail, live, rescoring } = await startBackgroundWork(app, config, db, metrics);
  const sources: ScopeSources = { db, config, authRows, mail, live, rescoring };

  const { apollo, trusted } = await registerGraphqlRoute(app, {
    metrics,
    sources,
    companySizes,
    responseCache,
    tracing,
    clients,
  });
  if (config.live.maxSockets > 0) registerSubscriptions(app, { metrics, sources, companySizes, trusted, clients });
  registerRestRoutes(app, { apollo, sources, clientOf: clients.ofRequest });
  registerExportRoutes(app, sources);
  registerResponseSizeLimit(app, config.graphql.maxResponseBytes);
  registerDocs(app, getSchema(engine.leanResolvers));
  registerAccountPages(app); // what the links of our e-mails open where APP_URL is the gateway
  registerSsoRoutes(app, sources, (request) => {
    const client = clients.ofRequest(request);
    return {
      start: { ip: client.ip, throttle: client.ssoStartThrottle },
      callback: { ip: client.ip, throttle: client.loginThrottle },
    };
  });
  // The offline GraphQL explorer goes with Sandbox: both are for people trying the API, and off in production.
  if (config.graphql.sandbox) registerExplorer(app);
  registerErrorHandlers(app, allowedMethods);
  if (config.metrics.enabled) registerMetricsRoute(app, metrics, config.metrics.token, config.env === 'production');
  registerProbes(app, db, live);
  return app;
}
