// Environment parsed and validated once. A bad value is a ConfigError: one clear line, then exit 1.
import { createHmac, randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { DatabaseTarget } from './db/adapters.ts';
import { ENGINE_PARTS, engineOffNames, type EngineMode, type EnginePart } from './engine/mode.ts';
import { withEnvFile } from './env-file.ts';

export class ConfigError extends Error {}

/** The levels LOG_LEVEL accepts (pino's, and silent). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = 'json' | 'pretty';

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  database: DatabaseTarget;
  jwtSecret: string;
  jwtTtlSeconds: number;
  /** log2 of scrypt's N for new password hashes (src/auth/passwords.ts); weaker stored hashes are replaced at login. */
  passwordHashCost: number;
  /** How password derivations share the process (src/auth/passwords.ts): slots, and the waiting share of a lane. */
  passwordWork: { concurrency: number; queuePerAddress: number; queuePerCompany: number };
  seedOnEmpty: boolean;
  logLevel: LogLevel;
  /** json: one JSON object a line (for a log pipeline); pretty: readable lines for a person (pino-pretty). */
  logFormat: LogFormat;
  sqlStats: boolean;
  dbPoolMax: number;
  /** PostgreSQL statement_timeout of the server's connections, so abandoned work stops in the database too;
   * 0 = none. */
  dbStatementTimeoutMs: number;
  /** PostgreSQL: statements sent again and again stay prepared on each connection
   * (src/engine/db/statement-names.ts). */
  dbPreparedStatements: boolean;
  graphql: {
    maxDepth: number;
    maxFields: number;
    maxAliases: number;
    maxTokens: number;
    introspection: boolean;
    sandbox: boolean;
    /** Only the documents of operations/manifest.json run (trusted documents, docs/trusted-documents.md). */
    persistedOperationsOnly: boolean;
    /** Estimated objects a response may hold, refused before it runs (src/graphql/cost.ts). */
    maxCost: number;
    /** Objects a request may resolve: execution stops past it (src/app/object-budget.ts). */
    maxObjects: number;
    /** Bytes of one GraphQL or REST response. */
    maxResponseBytes: number;
    /** Queries executing at once in the process (0: no limit); the rest wait their turn. */
    maxConcurrentExecutions: number;
  };
  http: {
    bodyLimitBytes: number;
    /** Whole-request deadline (routing to last byte of the response); 0 = none. */
    requestTimeoutMs: number;
    /** Origins allowed by CORS: [] = none (same-origin only), ['*'] = any. */
    corsOrigins: string[];
    /** Hops of reverse proxies whose X-Forwarded-For is trusted for the client address (0 = none). */
    trustProxyHops: number;
  };
  rateLimit: {
    /** Requests per client address per window; 0 switches the general limit off. */
    max: number;
    windowMs: number;
    /** Login attempts per client address and per e-mail per window (REST and GraphQL alike). */
    loginMax: number;
    loginWindowMs: number;
    /** Sign-ups per client address and e-mail per window (ten times it per address); every one counts. */
    registerMax: number;
    registerWindowMs: number;
    /** Single sign-on starts per client address per window, every one counted (each stores a pending sign-in). */
    ssoStartMax: number;
    ssoStartWindowMs: number;
  };
  metrics: { enabled: boolean; token: string | null };
  /** The CSV exports (src/rest/exports.ts): exports running at once per replica, rows read per page. */
  exports: { maxConcurrent: number; pageRows: number };
  notificationsIntervalSeconds: number;
  /**
   * A result on a match with more predictions than this is committed at once and rescored by a job right after
   * the request (src/game/rescore-jobs.ts); up to this many are rescored in the result's own transaction.
   */
  rescoreInRequestMaxPredictions: number;
  /** On SIGTERM, how long to keep serving (with /readyz 503) before closing the listener. */
  shutdownDelayMs: number;
  /** Off only for the benchmark's naive baseline: every loader then queries once per parent row. */
  dataloaderBatching: boolean;
  /** Execute with graphql-jit (compiled per document) instead of graphql-js; false runs graphql-js. */
  graphqlJit: boolean;
  /** Queries complete an object met again under the same selection once
   * (src/engine/graphql/shared-subtrees/executor.ts). */
  graphqlSharedSubtrees: boolean;
  /** Bytes of responses the response cache may hold (src/engine/cache/response-cache.ts); 0 turns it off. */
  responseCacheBytes: number;
  /**
   * Which speed-only parts run (src/engine/README.md): `full` all of them but those `off` names, `plain` none.
   * src/engine/index.ts decides from this and the settings above.
   */
  engine: { mode: EngineMode; off: EnginePart[] };
  mail: MailConfig;
  /** Sign-in with Google and each company's own OpenID Connect provider (src/app/sso.ts). */
  sso: SsoConfig;
  /** OpenTelemetry tracing (src/observability/tracing*.ts); null, when OTEL_EXPORTER_OTLP_ENDPOINT is unset, = off. */
  tracing: TracingConfig | null;
  /** Subscriptions over WebSocket (src/graphql/subscriptions/server.ts). */
  live: {
    /** Open sockets per replica; 0 turns subscriptions off. */
    maxSockets: number;
    /** Open sockets per client address (IPv6 by its /64). */
    maxSocketsPerAddress: number;
    maxSubscriptionsPerSocket: number;
    /** A socket is pinged this often and closed when the last ping went unanswered. */
    keepAliveMs: number;
    /** Objects the responses to one event may hold per socket and per address (graphql/subscriptions/executions.ts). */
    maxObjectsPerSocket: number;
    maxObjectsPerAddress: number;
    /** Objects all event executions of the process may hold at once. */
    maxObjectsInFlight: number;
    /** Event executions running at once (apart from GRAPHQL_MAX_CONCURRENT_EXECUTIONS), and waiting at most. */
    maxConcurrentExecutions: number;
    maxQueuedExecutions: number;
    /** Ranking events go out at most once per tournament, company and this interval (0: each as it comes). */
    rankingIntervalMs: number;
    /** Published events are kept this long for subscribers that resume with `after` (0: none kept). */
    resumeWindowMs: number;
  };
}

/** Where spans are exported: the standard OTEL_* variables (OTLP over HTTP only). */
export interface TracingConfig {
  /** The collector's base URL; spans are POSTed to <endpoint>/v1/traces. */
  endpoint: string;
  protocol: 'http/protobuf' | 'http/json';
  /** Sent with every export (a collector's API key): never logged. */
  headers: Record<string, string>;
  serviceName: string;
}

/** An OpenID Connect client registered at one issuer. */
export interface OidcClientConfig {
  issuer: string;
  clientId: string;
  /** Never logged. */
  clientSecret: string;
}

export interface SsoConfig {
  /** The gateway's own external base URL: providers send people back to <publicUrl>/auth/sso/callback. */
  publicUrl: string;
  /** True when APP_URL is unset (the gateway is the app): sign-ins end on the gateway's own page. */
  appUrlIsGateway: boolean;
  /** The gateway serves its explorer at /graphiql (GRAPHQL_SANDBOX): a sign-in started there ends there. */
  explorer: boolean;
  /** Google as a platform-wide client, offered only when GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are both set. */
  google: OidcClientConfig | null;
}

/** Where e-mail goes (src/mail/channel.ts). */
export interface MailConfig {
  /** smtp://user:pass@host:port or smtps://...: e-mail leaves through this server. */
  smtpUrl: string | null;
  /** Without SMTP in development: each message is written here as an .eml file, for a person to open. */
  folder: string | null;
  /** The sender, e.g. "Prode <no-reply@example.com>". */
  from: string;
  /** Where people open the app: links in e-mails (password reset, verification) point there. */
  appUrl: string;
  /** Keys the Message-ID of each e-mail (src/mail/message-id.ts); derived from JWT_SECRET. Never logged. */
  messageIdKey: Buffer;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function engineOff(env: Env): EnginePart[] {
  const names = engineOffNames(env);
  for (const name of names) {
    if (!(ENGINE_PARTS as readonly string[]).includes(name)) {
      throw new ConfigError(`ENGINE_OFF names parts from ${ENGINE_PARTS.join(', ')}; got "${name}"`);
    }
  }
  return [...new Set(names)] as EnginePart[];
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (values.includes(raw as T)) return raw as T;
  throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${env[name]}"`);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

/** Makes sure the data dir exists and is writable; SQLite needs to create its file and journal there. */
export function ensureWritableDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new ConfigError(`data directory ${dir} is not writable (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
}

function databaseTarget(env: Env, dataDir: string): DatabaseTarget {
  const url = env.DATABASE_URL?.trim();
  if (!url) return { provider: 'sqlite', file: resolve(dataDir, 'prode.db') };
  if (/^postgres(ql)?:\/\//.test(url)) {
    try {
      new URL(url);
    } catch {
      throw new ConfigError('DATABASE_URL is not a valid postgresql:// URL');
    }
    return { provider: 'postgresql', url };
  }
  if (url.startsWith('file:')) return { provider: 'sqlite', file: resolve(url.slice('file:'.length)) };
  throw new ConfigError(
    'DATABASE_URL must start with postgresql://, postgres:// or file: (or be unset for ./data/prode.db)',
  );
}

/** HS256 needs a real secret. Development gets one generated once into the data dir, and a line says where. */
function jwtSecret(env: Env, nodeEnv: Config['env'], dataDir: string, note: (msg: string) => void): string {
  const given = env.JWT_SECRET;
  if (given) {
    if (given.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters');
    return given;
  }
  if (nodeEnv === 'production') throw new ConfigError('JWT_SECRET is required when NODE_ENV=production');
  const file = resolve(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  ensureWritableDir(dataDir);
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  note(`JWT_SECRET is not set: generated one into ${file} (set JWT_SECRET in production)`);
  return secret;
}

/**
 * Without an `env`, the process's environment over .env (src/env-file.ts). `note` hears of what the configuration
 * did by itself (a secret generated for development): normal events, which the server logs at info.
 */
export function loadConfig(env: Env = withEnvFile().env, note: (msg: string) => void = console.info): Config {
  const rawEnv = env.NODE_ENV ?? 'development';
  if (!['development', 'production', 'test'].includes(rawEnv)) {
    throw new ConfigError(`NODE_ENV must be development, production or test, got "${rawEnv}"`);
  }
  const nodeEnv = rawEnv as Config['env'];
  const dataDir = resolve(env.DATA_DIR || './data');
  const secret = jwtSecret(env, nodeEnv, dataDir, note);
  return {
    env: nodeEnv,
    host: env.HOST || '127.0.0.1',
    port: int(env, 'PORT', 4000, 0, 65535),
    dataDir,
    database: databaseTarget(env, dataDir),
    jwtSecret: secret,
    jwtTtlSeconds: int(env, 'JWT_TTL_SECONDS', 7 * 24 * 3600, 60, 365 * 24 * 3600),
    // N = 2^17 (128 MiB per derivation) is current guidance; 14 only to keep test suites quick, 20 = 1 GiB.
    passwordHashCost: int(env, 'PASSWORD_HASH_COST', 17, 14, 20),
    // Two slots of the four libuv workers; a lane's waiting share is refused past its bound (RATE_LIMITED).
    passwordWork: {
      concurrency: int(env, 'PASSWORD_HASH_CONCURRENCY', 2, 1, 64),
      queuePerAddress: int(env, 'PASSWORD_HASH_QUEUE_PER_ADDRESS', 16, 1, 10_000),
      queuePerCompany: int(env, 'PASSWORD_HASH_QUEUE_PER_COMPANY', 64, 1, 100_000),
    },
    // The demo accounts share a published password: never loaded into a production database unless asked for.
    seedOnEmpty: bool(env, 'SEED_ON_EMPTY', nodeEnv !== 'production'),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, nodeEnv === 'test' ? 'warn' : 'info'),
    logFormat: oneOf(env, 'LOG_FORMAT', ['json', 'pretty'] as const, 'json'),
    sqlStats: bool(env, 'SQL_STATS', nodeEnv === 'development'),
    dbPoolMax: int(env, 'DB_POOL_MAX', 10, 1, 200),
    // Under REQUEST_TIMEOUT_MS's default, so a statement stops before the request's deadline responds for it.
    dbStatementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', 25_000, 0, 3_600_000),
    // Off only behind a pooler that cannot keep them (PgBouncer in transaction mode before 1.21).
    dbPreparedStatements: bool(env, 'DB_PREPARED_STATEMENTS', true),
    dataloaderBatching: bool(env, 'DATALOADER_BATCHING', true),
    graphqlJit: bool(env, 'GRAPHQL_JIT', true),
    graphqlSharedSubtrees: bool(env, 'GRAPHQL_SHARED_SUBTREES', true),
    responseCacheBytes: int(env, 'RESPONSE_CACHE_MB', 64, 0, 65_536) * 1024 * 1024,
    engine: { mode: oneOf(env, 'ENGINE', ['full', 'plain'] as const, 'full'), off: engineOff(env) },
    notificationsIntervalSeconds: int(env, 'NOTIFICATIONS_INTERVAL_SECONDS', 300, 0, 86_400),
    // About a second of rescoring on a small machine: a referee's request stays short, a small company's players
    // see their points in the response's own commit.
    rescoreInRequestMaxPredictions: int(env, 'RESCORE_IN_REQUEST_MAX_PREDICTIONS', 10_000, 0, 1_000_000_000),
    shutdownDelayMs: int(env, 'SHUTDOWN_DELAY_MS', 1000, 0, 120_000),
    graphql: {
      maxDepth: int(env, 'GRAPHQL_MAX_DEPTH', 15, 1, 100),
      maxFields: int(env, 'GRAPHQL_MAX_FIELDS', 1000, 10, 100_000),
      maxAliases: int(env, 'GRAPHQL_MAX_ALIASES', 30, 0, 10_000),
      maxTokens: int(env, 'GRAPHQL_MAX_TOKENS', 20_000, 100, 1_000_000),
      maxCost: int(env, 'GRAPHQL_MAX_COST', 3_000_000, 1, 1_000_000_000_000),
      maxObjects: int(env, 'GRAPHQL_MAX_OBJECTS', 200_000, 1, 1_000_000_000),
      maxResponseBytes: int(env, 'GRAPHQL_MAX_RESPONSE_BYTES', 16 * 1024 * 1024, 1024, 2 * 1024 * 1024 * 1024),
      // Two per core: more interleave on the one JavaScript thread and hold more responses in memory; fewer would let
      // two slow reads (a large ranking) hold up the rest.
      maxConcurrentExecutions: int(env, 'GRAPHQL_MAX_CONCURRENT_EXECUTIONS', 2 * availableParallelism(), 0, 10_000),
      introspection: bool(env, 'GRAPHQL_INTROSPECTION', nodeEnv !== 'production'),
      sandbox: bool(env, 'GRAPHQL_SANDBOX', nodeEnv !== 'production'),
      persistedOperationsOnly: bool(env, 'PERSISTED_OPERATIONS_ONLY', false),
    },
    http: {
      bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
      requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 0, 600_000),
      corsOrigins: corsOrigins(env, nodeEnv),
      trustProxyHops: int(env, 'TRUST_PROXY_HOPS', 0, 0, 10),
    },
    rateLimit: {
      max: int(env, 'RATE_LIMIT_MAX', 1200, 0, 10_000_000),
      windowMs: int(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 1000, 86_400_000),
      loginMax: int(env, 'LOGIN_RATE_LIMIT_MAX', 10, 1, 1_000_000),
      loginWindowMs: int(env, 'LOGIN_RATE_LIMIT_WINDOW_MS', 15 * 60_000, 1000, 86_400_000),
      registerMax: int(env, 'REGISTER_RATE_LIMIT_MAX', 5, 1, 1_000_000),
      registerWindowMs: int(env, 'REGISTER_RATE_LIMIT_WINDOW_MS', 60 * 60_000, 1000, 86_400_000),
      ssoStartMax: int(env, 'SSO_START_RATE_LIMIT_MAX', 30, 1, 1_000_000),
      ssoStartWindowMs: int(env, 'SSO_START_RATE_LIMIT_WINDOW_MS', 15 * 60_000, 1000, 86_400_000),
    },
    live: {
      maxSockets: int(env, 'WS_MAX_SOCKETS', 10_000, 0, 1_000_000),
      // An office behind one NAT address watches a matchday together.
      maxSocketsPerAddress: int(env, 'WS_MAX_SOCKETS_PER_ADDRESS', 200, 1, 1_000_000),
      maxSubscriptionsPerSocket: int(env, 'WS_MAX_SUBSCRIPTIONS_PER_SOCKET', 20, 1, 1000),
      keepAliveMs: int(env, 'WS_KEEPALIVE_SECONDS', 30, 1, 3600) * 1000,
      // Per event: a socket as much as a few subscriptions of a large company's match; an address what one query
      // may resolve (GRAPHQL_MAX_OBJECTS); the process two such at once.
      maxObjectsPerSocket: int(env, 'LIVE_MAX_OBJECTS_PER_SOCKET', 50_000, 1, 1_000_000_000),
      maxObjectsPerAddress: int(env, 'LIVE_MAX_OBJECTS_PER_ADDRESS', 200_000, 1, 1_000_000_000),
      maxObjectsInFlight: int(env, 'LIVE_MAX_OBJECTS_IN_FLIGHT', 400_000, 1, 1_000_000_000),
      // One per core: with the HTTP slots' two per core, events get a third of the thread at most when both are busy.
      maxConcurrentExecutions: int(env, 'LIVE_MAX_CONCURRENT_EXECUTIONS', availableParallelism(), 1, 1000),
      maxQueuedExecutions: int(env, 'LIVE_MAX_QUEUED_EXECUTIONS', 10_000, 0, 10_000_000),
      // A burst of results moves a ranking many times a second; a subscriber needs its last state, soon.
      rankingIntervalMs: int(env, 'LIVE_RANKING_INTERVAL_MS', 1000, 0, 60_000),
      // Long enough to ride out a replica's restart and a phone's lost connection; rows are a few per event.
      resumeWindowMs: int(env, 'LIVE_RESUME_WINDOW_MINUTES', 10, 0, 24 * 60) * 60_000,
    },
    // A few organisers at once; each holds one page of rows and one database connection at a time.
    exports: {
      maxConcurrent: int(env, 'EXPORT_MAX_CONCURRENT', 4, 1, 1000),
      pageRows: int(env, 'EXPORT_PAGE_ROWS', 500, 10, 10_000),
    },
    metrics: {
      enabled: bool(env, 'METRICS_ENABLED', true),
      token: env.METRICS_TOKEN ? metricsToken(env.METRICS_TOKEN) : null,
    },
    mail: mailConfig(env, nodeEnv, dataDir, secret),
    sso: ssoConfig(env, nodeEnv),
    tracing: tracingConfig(env),
  };
}

function tracingConfig(env: Env): TracingConfig | null {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim().replace(/\/+$/, '');
  if (!endpoint) return null;
  try {
    if (!/^https?:$/.test(new URL(endpoint).protocol)) throw new Error();
  } catch {
    throw new ConfigError(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL like http://collector:4318`);
  }
  const protocol = env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() || 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    throw new ConfigError(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json, got "${protocol}"`);
  }
  // The specification's format: key=value pairs separated by commas, values URL-encoded.
  const headers: Record<string, string> = {};
  for (const pair of (env.OTEL_EXPORTER_OTLP_HEADERS ?? '').split(',')) {
    if (!pair.trim()) continue;
    const at = pair.indexOf('=');
    const key = pair.slice(0, at).trim();
    let value: string | undefined;
    try {
      value = at > 0 ? decodeURIComponent(pair.slice(at + 1).trim()) : undefined;
    } catch {
      // reported below
    }
    // The value is a credential: the error names the key only.
    if (!key || value === undefined || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key))
      throw new ConfigError(`OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs separated by commas (near "${key}")`);
    headers[key] = value;
  }
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || 'prode-gateway';
  return { endpoint, protocol, headers, serviceName };
}

function mailConfig(env: Env, nodeEnv: Config['env'], dataDir: string, secret: string): MailConfig {
  const smtpUrl = env.SMTP_URL?.trim() || null;
  if (smtpUrl) {
    let url: URL | null = null;
    try {
      url = new URL(smtpUrl);
    } catch {
      // reported below
    }
    if (!url || !['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname) {
      throw new ConfigError('SMTP_URL must look like smtp://user:password@host:587 or smtps://host:465');
    }
  }
  const from = env.MAIL_FROM?.trim() || 'Prode <no-reply@localhost>';
  if (!/^[^<>]*<[^\s@<>]+@[^\s@<>]+>$|^[^\s@<>]+@[^\s@<>]+$/.test(from)) {
    throw new ConfigError(`MAIL_FROM must be an address or "Name <address>", got "${from}"`);
  }
  const appUrl = (env.APP_URL?.trim() || `http://127.0.0.1:${env.PORT?.trim() || 4000}`).replace(/\/+$/, '');
  try {
    if (!/^https?:$/.test(new URL(appUrl).protocol)) throw new Error();
  } catch {
    throw new ConfigError(`APP_URL must be an http(s) URL like https://prode.example.com, got "${appUrl}"`);
  }
  // Only in development does an e-mail land on the server's disk (it holds reset links); in production and tests
  // without SMTP, e-mail waits in the outbox until a server is configured.
  const folder = !smtpUrl && nodeEnv === 'development' ? resolve(dataDir, 'mail') : null;
  // Its own key, not JWT_SECRET itself, so one purpose's key never serves another's.
  const messageIdKey = createHmac('sha256', secret).update('prode/mail/message-id').digest();
  return { smtpUrl, folder, from, appUrl, messageIdKey };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An issuer's URL may be http only on loopback and outside production (local providers and tests). */
export function issuerProblem(issuer: string, nodeEnv: Config['env']): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'is not a URL';
  }
  if (url.search || url.hash || url.username || url.password) return 'must have no query, fragment or credentials';
  if (url.protocol === 'https:') return null;
  if (url.protocol !== 'http:') return 'must be an https:// URL';
  if (nodeEnv === 'production') return 'must be https:// in production';
  return LOOPBACK_HOSTS.has(url.hostname) ? null : 'may be http:// only on loopback (127.0.0.1, localhost, ::1)';
}

function ssoConfig(env: Env, nodeEnv: Config['env']): SsoConfig {
  const port = env.PORT?.trim() || '4000';
  const publicUrl = (env.PUBLIC_URL?.trim() || `http://127.0.0.1:${port}`).replace(/\/+$/, '');
  let parsed: URL | null = null;
  try {
    parsed = new URL(publicUrl);
  } catch {
    // reported below
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.search || parsed.hash || parsed.username) {
    throw new ConfigError(`PUBLIC_URL must be an http(s) URL like https://api.example.com, got "${publicUrl}"`);
  }
  const clientId = env.GOOGLE_CLIENT_ID?.trim() || '';
  const clientSecret = env.GOOGLE_CLIENT_SECRET?.trim() || '';
  if (Boolean(clientId) !== Boolean(clientSecret)) {
    throw new ConfigError('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set together (or neither, for no Google)');
  }
  const issuer = (env.GOOGLE_ISSUER?.trim() || 'https://accounts.google.com').replace(/\/+$/, '');
  const problem = issuerProblem(issuer, nodeEnv);
  if (problem) throw new ConfigError(`GOOGLE_ISSUER ${problem}, got "${issuer}"`);
  return {
    publicUrl,
    appUrlIsGateway: !env.APP_URL?.trim(),
    explorer: bool(env, 'GRAPHQL_SANDBOX', nodeEnv !== 'production'),
    google: clientId ? { issuer, clientId, clientSecret } : null,
  };
}

function metricsToken(token: string): string {
  if (token.length < 16) throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  return token;
}

/** CORS_ORIGINS: comma-separated origins (https://app.example.com), or * for any. Development defaults to any. */
function corsOrigins(env: Env, nodeEnv: Config['env']): string[] {
  const given = env.CORS_ORIGINS?.trim();
  // Empty means unset, as for every other variable; "none" turns CORS off explicitly.
  const raw = given ? (given === 'none' ? '' : given) : nodeEnv === 'development' ? '*' : '';
  if (raw === '') return [];
  if (raw === '*') return ['*'];
  return raw
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)
    .map((origin) => {
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        throw new ConfigError(`CORS_ORIGINS: "${origin}" is not an origin like https://app.example.com`);
      }
      if (url.origin !== origin)
        throw new ConfigError(`CORS_ORIGINS: "${origin}" is not an origin (write ${url.origin})`);
      return origin;
    });
}
