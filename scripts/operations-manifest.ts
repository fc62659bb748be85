// `npm run operations:manifest`: writes operations/manifest.json (the trusted documents) from operations/** as
// compiled by GraphQL Code Generator; `npm run codegen` runs it last. A test fails when the committed file is stale.
import { writeFileSync } from 'node:fs';
import { buildManifest, MANIFEST_FILE, manifestText } from '../src/graphql/operations-manifest.ts';

const manifest = buildManifest();
writeFileSync(MANIFEST_FILE, manifestText(manifest));
console.log(`operations:manifest: wrote ${manifest.operations.length} operations to ${MANIFEST_FILE}`);
