// Which engine runs, read from the environment with no imports: runtime.ts needs it before anything else loads, and
// config.ts validates it. Why: docs/decisions/0020-engine-fenced-behind-one-switch.md.

export type EngineMode = 'full' | 'plain';

/** The parts ENGINE_OFF may name, each turned off on its own in full mode (src/engine/README.md). */
export const ENGINE_PARTS = [
  'jit',
  'shared-subtrees',
  'shared-json',
  'lean-resolvers',
  'sql-loaders',
  'row-reader',
  'table-versions',
  'prepared-statements',
  'response-cache',
  'runtime',
] as const;

export type EnginePart = (typeof ENGINE_PARTS)[number];

/** `ENGINE`: "plain" runs the product without any part; anything else (checked by config.ts) is full. */
export function engineMode(env: Record<string, string | undefined>): EngineMode {
  return env.ENGINE?.trim().toLowerCase() === 'plain' ? 'plain' : 'full';
}

/** `ENGINE_OFF`, split; config.ts rejects a name not in ENGINE_PARTS. */
export function engineOffNames(env: Record<string, string | undefined>): string[] {
  return (env.ENGINE_OFF ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}
