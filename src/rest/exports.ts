// The CSV exports (GET /exports/...): RFC 4180 (CRLF, a header row, fields with a comma, quote, CR or LF quoted,
// quotes doubled), UTF-8, written as the operation reads its pages (src/app/exports.ts), so the response streams
// with the client's pace: the next page is read only once the previous rows are on their way. Cells that a
// spreadsheet would run as a formula are made inert (docs/security.md, "Exports").
import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { predictionsExport, rankingExport, usersExport, type Export, type ExportCell } from '../app/exports.ts';
import type { RequestScope } from '../app/scope.ts';
import { DomainError } from '../domain/errors.ts';
import { sendError } from '../http/error-body.ts';
import { openRequestScope, tenantHeaders, type ScopeSources } from '../http/request-scope.ts';
import { ExportSlots } from '../security/export-slots.ts';
import { RestInputError, statusOf } from './errors.ts';
import { optionalIntQuery, optionalStringQuery, positiveIntParam, rejectUnknownQuery } from './inputs.ts';
import type { RestRequestParts } from './route-table.ts';

type Request = FastifyRequest<RestRequestParts>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The exports running now, one per person (src/security/export-slots.ts). */
    exportSlots: ExportSlots;
  }
}

export interface ExportRoute {
  /** As Fastify writes it; the OpenAPI document writes `{tournamentId}`. */
  path: string;
  query: readonly string[];
  open: (scope: RequestScope, req: Request, pageRows: number) => Promise<Export>;
  openapi: { summary: string; operationId: string; columns: string; errors: Record<number, string>; query?: object[] };
}

const optionalPositive = (query: Record<string, unknown>, name: string) => {
  const v = optionalIntQuery(query, name);
  if (v !== undefined && v < 1) throw new RestInputError(`query parameter ${name} must be a positive integer`);
  return v;
};

function booleanQuery(query: Record<string, unknown>, name: string): boolean {
  const v = optionalStringQuery(query, name);
  if (v === undefined || v === 'false') return false;
  if (v === 'true') return true;
  throw new RestInputError(`query parameter ${name} must be true or false`);
}

const idQuery = (name: string, description: string) => ({
  name,
  in: 'query',
  description,
  schema: { type: 'integer', minimum: 1 },
});
const TOURNAMENT_ERRORS = { 404: 'No such tournament in this company (NOT_FOUND)' };

export const EXPORT_ROUTES: ExportRoute[] = [
  {
    path: '/exports/rankings/:tournamentId.csv',
    query: ['roundId', 'areaId'],
    open: (scope, req, pageRows) =>
      rankingExport(
        scope,
        {
          tournamentId: positiveIntParam(req.params.tournamentId, 'tournamentId'),
          roundId: optionalPositive(req.query, 'roundId'),
          areaId: optionalPositive(req.query, 'areaId'),
        },
        pageRows,
      ),
    openapi: {
      summary: "A tournament's ranking as CSV, every page of it (admins, the company's reseller, managers)",
      operationId: 'exportRanking',
      columns:
        'position, userId, name, points, exactHits, outcomeHits (and roundWins under the ROUND_WINS tie rule): ' +
        'the rows, order and positions of the ranking query',
      errors: {
        ...TOURNAMENT_ERRORS,
        400: 'Malformed tournamentId, roundId or areaId, a round of another tournament, or another query parameter',
      },
      query: [
        idQuery('roundId', 'Points of this round only.'),
        idQuery('areaId', 'Only people placed in this area of the company.'),
      ],
    },
  },
  {
    path: '/exports/predictions/:tournamentId.csv',
    query: [],
    open: (scope, req, pageRows) =>
      predictionsExport(scope, positiveIntParam(req.params.tournamentId, 'tournamentId'), pageRows),
    openapi: {
      summary: "A tournament's predictions as CSV (admins, the company's reseller, managers)",
      operationId: 'exportPredictions',
      columns:
        'predictionId, matchId, kickoff, round, homeTeam, awayTeam, userId, userName, homeTeamGoals, ' +
        "awayTeamGoals, penaltiesWinner, isJoker, status, points: the company's predictions, of a match not yet " +
        "kicked off only the caller's own (as Match.predictions), by kickoff then user id",
      errors: { ...TOURNAMENT_ERRORS, 400: 'Malformed tournamentId, or a query parameter' },
    },
  },
  {
    path: '/exports/users.csv',
    query: ['deactivated'],
    open: (scope, req, pageRows) => usersExport(scope, booleanQuery(req.query, 'deactivated'), pageRows),
    openapi: {
      summary: "The company's people as CSV (admins, the company's reseller, managers)",
      operationId: 'exportUsers',
      columns:
        'id, externalId, name, email, role, emailVerified, areaLevel1Id, areaLevel2Id, areaLevel3Id, ' +
        'loginProviderName, preferredLanguage, timezone, createdAt, lastActiveDate, loginCount, deletedAt: the ' +
        'people the users query lists, by name then id; never a secret',
      errors: { 400: 'deactivated other than true or false, or another query parameter' },
      query: [
        {
          name: 'deactivated',
          in: 'query',
          description: 'true: the deactivated people instead of the active ones.',
          schema: { type: 'boolean', default: false },
        },
      ],
    },
  },
];

/** A cell as text: dates in ISO 8601 (UTC), booleans as true/false, null empty. */
const CAST = {
  date: (d: Date) => d.toISOString(),
  boolean: (b: boolean) => (b ? 'true' : 'false'),
};

/** The CSV text of an export, written as its pages are read; a failure (a page that cannot be read) ends it. */
export function csvStream(exported: Export, failed: (err: Error) => void = () => {}): Readable {
  async function* records(): AsyncGenerator<ExportCell[]> {
    for await (const page of exported.pages) yield* page;
  }
  const csv = stringify({
    header: true,
    columns: exported.columns,
    record_delimiter: '\r\n',
    // A lone CR or LF in a field is quoted too (csv-stringify quotes only the record delimiter once one is set).
    quote_record_delimiter: true,
    // A leading =, +, -, @, tab or CR (and their full-width forms) gets a ' before it: a spreadsheet shows the
    // text instead of running it (a negative number stays a number).
    escape_formulas: true,
    cast: CAST,
  });
  // Readable.from pulls a record only when the stringifier has room, and the stringifier fills only as the
  // response drains: that is the backpressure from the client down to the database.
  // A response closed early destroys the stringifier, and pipeline stops the reading with it.
  return pipeline(Readable.from(records()), csv, (err) => err && failed(err));
}

/** How long an export waits for a client that stopped reading before it closes the connection. */
const STALLED_MS = 60_000;

/** The reason a caller hears when no export slot is free. */
const BUSY = {
  caller: 'one export at a time per person: wait for the one under way to finish',
  server: 'the server runs its most exports at once (EXPORT_MAX_CONCURRENT): try again shortly',
};

export function registerExportRoutes(app: FastifyInstance, sources: ScopeSources) {
  const slots = new ExportSlots(sources.config.exports.maxConcurrent);
  app.decorate('exportSlots', slots);
  const { pageRows } = sources.config.exports;

  async function serve(route: ExportRoute, req: Request, reply: FastifyReply) {
    rejectUnknownQuery(req.query, route.query);
    const { scope } = await openRequestScope(sources, tenantHeaders(req, 'path-or-host'));
    let release = () => {};
    try {
      const slot = slots.take(scope.requireViewer().id);
      if ('refused' in slot) {
        reply.header('retry-after', '5');
        return sendError(reply, 429, 'RATE_LIMITED', BUSY[slot.refused]);
      }
      release = slot.release;
      const exported = await route.open(scope, req, pageRows);
      if (reply.sent) return release(); // the request deadline responded already
      const body = csvStream(exported, (err) => {
        // A client that went away is no failure of ours.
        const gone = err.name === 'AbortError' || (err as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE';
        if (!gone) req.log.error({ err, route: route.path }, 'export failed while streaming');
      });
      // The slot is held until the response is written or the client went away, whichever comes first.
      reply.raw.once('close', release);
      // The request's deadline bounds the time to the first bytes: a download under way is not cut by a 504. A
      // client that stops reading for a minute is cut off instead, so it cannot hold its slot for ever.
      clearTimeout(req.deadline);
      reply.raw.setTimeout(STALLED_MS, () => reply.raw.destroy());
      return reply
        .code(200)
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exported.filename}"`)
        .header('cache-control', 'no-store')
        .send(body);
    } catch (err) {
      release();
      if (!(err instanceof DomainError)) throw err;
      const retryAfter = err.extensions.retryAfterSeconds;
      if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
      return sendError(reply, statusOf(err.code), err.code, err.message);
    }
  }

  // No HEAD: it would run a whole export to send its headers.
  for (const route of EXPORT_ROUTES)
    app.get<RestRequestParts>(route.path, { exposeHeadRoute: false }, (req, reply) => serve(route, req, reply));
}
