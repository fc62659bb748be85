// Trusted documents (PERSISTED_OPERATIONS_ONLY=true): only the operations of operations/manifest.json run.
// A client sends an operation by its hash, APQ-style (extensions.persistedQuery.sha256Hash, no query), or as its
// exact text; anything else is refused before it is parsed. Over HTTP the manifest stands in for Apollo's APQ cache
// (a hash resolves to its manifest text, nothing can be registered) and a preHandler on /graphql refuses any other
// text before Apollo sees it; over WebSocket subscriptions/server.ts asks trustedSource. The REST routes run their
// stored operations in-process (src/rest/routes.ts): the manifest lists them (a test checks), so they need no gate.
// docs/trusted-documents.md is the client's side of it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../config.ts';
import { persistedQueryNotInList } from '../domain/errors.ts';
import { MANIFEST_FILE, sha256Hex, type Manifest, type ManifestOperation } from './operations-manifest.ts';

// Apollo keys its APQ cache entries under this prefix (PrefixingKeyValueCache in @apollo/server).
const APQ_PREFIX = 'apq:';

export class TrustedDocuments {
  private constructor(private readonly byId: ReadonlyMap<string, ManifestOperation>) {}

  /** Reads and checks the manifest: a missing or hand-edited file stops the server at start, not at a request. */
  static load(file = MANIFEST_FILE): TrustedDocuments {
    let manifest: Manifest;
    try {
      manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    } catch (err) {
      throw new ConfigError(
        `PERSISTED_OPERATIONS_ONLY=true needs ${file} (npm run operations:manifest): ${(err as Error).message}`,
      );
    }
    if (manifest?.format !== 'apollo-persisted-query-manifest' || !Array.isArray(manifest.operations)) {
      throw new ConfigError(`${file} is not a persisted-query manifest (npm run operations:manifest rewrites it)`);
    }
    const byId = new Map<string, ManifestOperation>();
    for (const op of manifest.operations) {
      if (typeof op?.body !== 'string' || op.id !== sha256Hex(op.body)) {
        throw new ConfigError(`${file}: operation ${op?.name ?? '?'} has an id that is not the SHA-256 of its body`);
      }
      byId.set(op.id, op);
    }
    return new TrustedDocuments(byId);
  }

  get size() {
    return this.byId.size;
  }

  has(hash: string): boolean {
    return this.byId.has(hash);
  }

  body(hash: string): string | undefined {
    return this.byId.get(hash)?.body;
  }

  /**
   * Apollo's APQ cache, served from the manifest: a hash-only request gets its manifest text (or
   * PERSISTED_QUERY_NOT_FOUND), and a client's registration (query and hash sent together) is not held.
   */
  apqCache() {
    return {
      get: async (key: string) => this.body(key.startsWith(APQ_PREFIX) ? key.slice(APQ_PREFIX.length) : key),
      set: async () => {},
      delete: async () => {},
    };
  }

  /**
   * The preHandler of /graphql: a request that carries a query text (POST body or GET parameter) runs only if the
   * text is a manifest operation's. One that carries only a hash goes on to Apollo, which looks it up in apqCache.
   * Refused before Apollo parses anything: 400 with a GraphQL error body, as Apollo responds to bad requests.
   */
  preHandler() {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const carried = request.method === 'GET' ? [request.query] : [request.body].flat();
      for (const item of carried) {
        const query = (item as { query?: unknown } | null)?.query;
        if (typeof query === 'string' && query !== '' && !this.has(sha256Hex(query))) {
          const refused = notInList();
          request.outcome.errorCodes = [refused.code];
          return reply
            .code(400)
            .type('application/json; charset=utf-8')
            .send({ errors: [{ message: refused.message, extensions: { code: refused.code } }] });
        }
      }
    };
  }

  /** The text a WebSocket subscribe message may run: its query if trusted, or the manifest's text for its hash. */
  trustedSource(query: string, extensions: Record<string, unknown> | undefined | null): string {
    const hash = (extensions?.persistedQuery as { sha256Hash?: unknown } | undefined)?.sha256Hash;
    if (!query && typeof hash === 'string') {
      const body = this.body(hash);
      if (body !== undefined) return body;
    } else if (this.has(sha256Hex(query))) return query;
    throw notInList();
  }
}

const notInList = () =>
  persistedQueryNotInList(
    'this server runs only the operations of its manifest (PERSISTED_OPERATIONS_ONLY): send a listed operation ' +
      'by its hash or exact text',
  );
