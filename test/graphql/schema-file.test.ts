import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printSchemaFile, SCHEMA_FILE } from '../../src/graphql/print-schema.ts';

describe('schema.graphql', () => {
  it('is the schema the code builds (run npm run schema after changing the API)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(printSchemaFile());
  });
});
