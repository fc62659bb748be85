// `npm run schema`: writes schema.graphql from the code. A test fails when the committed file is stale.
import { writeFileSync } from 'node:fs';
import { printSchemaFile, SCHEMA_FILE } from '../src/graphql/print-schema.ts';

writeFileSync(SCHEMA_FILE, printSchemaFile());
console.log(`schema: wrote ${SCHEMA_FILE}`);
