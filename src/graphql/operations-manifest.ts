// The trusted-documents manifest (operations/manifest.json): every operation held in operations/**, as the text
// GraphQL Code Generator compiled it to (the operation and the fragments it uses, printed), under the SHA-256 of
// that text. The shape is Apollo's persisted-query manifest, so Apollo Client's persisted-query link and other
// tools read it as it is. `npm run operations:manifest` rewrites it; a test fails when it is stale.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Kind, print, type DocumentNode } from 'graphql';
import * as generated from './generated/operations.ts';

export const MANIFEST_FILE = fileURLToPath(new URL('../../operations/manifest.json', import.meta.url));

export interface ManifestOperation {
  /** The hex SHA-256 of body: what APQ requests send as extensions.persistedQuery.sha256Hash. */
  id: string;
  name: string;
  type: 'query' | 'mutation' | 'subscription';
  body: string;
}

export interface Manifest {
  format: 'apollo-persisted-query-manifest';
  version: 1;
  operations: ManifestOperation[];
}

/** As Apollo Server hashes a request's query (its queryHash): the hex SHA-256 of the exact text. */
export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

function isDocument(value: unknown): value is DocumentNode {
  return (value as DocumentNode | undefined)?.kind === Kind.DOCUMENT;
}

export function buildManifest(): Manifest {
  const operations: ManifestOperation[] = [];
  for (const value of Object.values(generated)) {
    if (!isDocument(value)) continue;
    const [first] = value.definitions;
    // Fragment documents are exported too: only operations are run.
    if (first?.kind !== Kind.OPERATION_DEFINITION || !first.name) continue;
    const body = print(value);
    operations.push({ id: sha256Hex(body), name: first.name.value, type: first.operation, body });
  }
  operations.sort((a, b) => a.name.localeCompare(b.name));
  return { format: 'apollo-persisted-query-manifest', version: 1, operations };
}

export const manifestText = (manifest: Manifest) => `${JSON.stringify(manifest, null, 2)}\n`;
