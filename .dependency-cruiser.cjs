// The layers' boundaries, checked by `npm run lint` in CI (docs/architecture.md). Each rule names what a layer must
// not know; a new import across one fails the build.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle, type-only ones included: each file can be read after the files it imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'db-knows-nothing-above',
      comment:
        'src/db knows nothing of the layers above it: no game rules, no faces, no bootstrap. It still ' +
        'calls the engine parts that sit under it (src/engine/db, src/engine/cache), as src/engine/index.ts decides.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/', pathNot: ['^src/(db|generated|engine/db|engine/cache)/', '^src/engine/(index|mode)[.]ts$'] },
    },
    {
      name: 'generated-clients-only-in-db',
      comment:
        'Only src/db and the engine parts under it import the generated Prisma clients; others use its Db, SQL ' +
        'helpers, enums and row types.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(db|generated|engine/db|engine/cache)/' },
      to: { path: '^src/generated/' },
    },
    {
      name: 'engine-knows-no-face',
      comment:
        'The engine (src/engine) only makes product paths faster: it imports no face and no operation, only the ' +
        'database layer and the few GraphQL types it plugs into (the context, the execution slots, the object budget).',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: {
        path: [
          '^src/(app|auth|bootstrap|domain|game|graphql|http|import|live|loaders|mail|notifications|rest|security)/',
          '^src/gateway/',
          '^src/server[.]ts$',
        ],
        pathNot: ['^src/app/object-budget[.]ts$', '^src/graphql/(context|execution-slots)[.]ts$'],
      },
    },
    {
      name: 'engine-behind-its-seam',
      comment:
        'The product calls the engine (src/engine) only at its seams, where src/engine/index.ts decides whether a ' +
        'part runs (ENGINE, ENGINE_OFF; docs/decisions/0020). A new caller is a new seam: add it here and to 0020.',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: [
          '^src/(engine|gateway)/',
          '^src/(server|config)[.]ts$',
          '^src/db/(client|adapters|migrations|sql-stats)[.]ts$',
          '^src/graphql/(apollo|context|schema|subscriptions/server)[.]ts$',
          '^src/(auth/request-auth|bootstrap/prepare|http/request-scope|loaders/registry|rest/routes)[.]ts$',
          '^src/observability/metrics[.]ts$',
        ],
      },
      to: { path: '^src/engine/' },
    },
    {
      name: 'auth-not-graphql',
      comment: 'Authentication raises domain errors; it does not know GraphQL.',
      severity: 'error',
      from: { path: '^src/auth/' },
      to: { path: '^src/graphql/|^node_modules/(graphql|type-graphql|@apollo)/' },
    },
    {
      name: 'domain-is-pure',
      comment:
        'src/domain holds the pure rules: values in, values out, no database, no I/O, no clock read (eslint forbids ' +
        'Date.now and new Date() there). It imports only src/domain, so no database, package or Node module can get ' +
        "in; the game's set-based work over the database lives in src/game, the operations' reads in src/app.",
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: '^src/domain/' },
    },
    {
      name: 'app-knows-no-face',
      comment: 'The application layer (src/app/) takes a request scope and returns results: no fastify, no GraphQL.',
      severity: 'error',
      from: { path: '^src/app/' },
      to: { path: '^src/(graphql|rest|http)/|^node_modules/(fastify|@fastify|graphql|type-graphql|@apollo)/' },
    },
    {
      name: 'below-the-faces-no-face',
      comment: 'Operations, game rules, notifications, loaders and the database layer know neither HTTP nor GraphQL.',
      severity: 'error',
      from: { path: '^src/(app|game|notifications|import|loaders|domain|db|bootstrap)/' },
      to: {
        path: [
          '^src/(gateway|graphql|rest)/',
          '^src/server[.]ts$',
          '^node_modules/(fastify|@fastify|graphql|type-graphql|@apollo)/',
        ],
      },
    },
    {
      name: 'gateway-started-by-the-process',
      comment: 'The HTTP assembly (src/gateway) is what src/server.ts starts: nothing else in src imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(gateway/|server[.]ts$)' },
      to: { path: '^src/gateway/' },
    },
    {
      name: 'infrastructure-knows-no-face-nor-app',
      comment:
        'src/db, auth, loaders, live feed, mail, notifications (the outbox and its background tick, not request ' +
        'operations), security, observability and lib serve the layers above: they import no face and no operation; ' +
        'of the HTTP plumbing, only the error body.',
      severity: 'error',
      from: { path: '^src/(db|security|observability|mail|live|auth|lib|loaders|notifications)/' },
      to: { path: '^src/(gateway|graphql|rest|app)/|^src/server[.]ts$|^src/http/(?!error-body[.]ts$)' },
    },
    {
      name: 'domain-and-game-know-no-app',
      comment: 'Rules are what operations use: they import no operation (src/app), no face, no request scope builder.',
      severity: 'error',
      from: { path: '^src/(domain|game)/' },
      to: { path: '^src/(app|gateway|graphql|rest|http)/|^src/server[.]ts$' },
    },
    {
      name: 'lib-is-self-contained',
      comment: 'src/lib holds generic utilities, unaware of the product: it imports nothing of src/ but itself.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'resolvers-and-routes-not-the-store',
      comment:
        'Resolvers and REST routes map arguments and results: ' +
        'they reach the database only through src/app and the loaders.',
      severity: 'error',
      from: { path: '^src/(graphql/resolvers|rest)/' },
      to: { path: '^node_modules/@prisma/|^src/generated/|^src/db/(client|sql|typed-sql|adapters)[.]ts$' },
    },
    {
      name: 'request-scope-serves-every-face',
      comment: 'src/http builds the request scope for GraphQL, REST and subscriptions alike: it knows none of them.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/(gateway|graphql|rest)/|^node_modules/(graphql|type-graphql|@apollo)/' },
    },
    {
      name: 'otel-sdk-only-in-tracing-sdk',
      comment:
        'Only src/observability/tracing-sdk.ts imports the OpenTelemetry SDK and exporters; the rest of the code ' +
        'uses the API, which costs nothing while no SDK is registered.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/observability/tracing-sdk[.]ts$' },
      to: { path: '^node_modules/@opentelemetry/', pathNot: '^node_modules/@opentelemetry/api/' },
    },
    {
      name: 'tracing-sdk-loaded-lazily',
      comment: 'The SDK is imported dynamically, and only when OTEL_EXPORTER_OTLP_ENDPOINT is set (src/server.ts).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/observability/tracing-sdk[.]ts$', dependencyTypesNot: ['dynamic-import'] },
    },
  ],
  options: {
    // Generated clients are reached (so the rules see imports of them) but not walked.
    doNotFollow: { path: ['node_modules', '^src/generated/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
