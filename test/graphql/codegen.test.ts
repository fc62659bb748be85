import { generate } from '@graphql-codegen/cli';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import config, { OUTPUT } from '../../codegen.ts';
import { ROOT } from '../helpers/process.ts';

describe('codegen output', () => {
  it('is what GraphQL Code Generator makes from schema.graphql and operations/** (run npm run codegen)', async () => {
    const outputs = (await generate({ ...config, cwd: ROOT, silent: true }, false)) as Array<{
      filename: string;
      content: string;
    }>;
    const fresh = outputs.find((o) => o.filename.endsWith(OUTPUT))!;
    expect(readFileSync(`${ROOT}${OUTPUT}`, 'utf8')).toBe(fresh.content);
  });
});
