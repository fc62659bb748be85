import { defineConfig } from 'prisma/config';

// The stock CLI wants to download a native schema engine, which is impossible offline. `prisma generate`
// only needs the variable to name an existing file; migrations go through the wasm engine (src/db/).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;

export default defineConfig({
  schema: 'prisma/schema.prisma',
});
