// The runtime settings src/engine/runtime.ts restarts the server to take, decided in one place so that whoever
// starts the server with them already given (the tests' spawned servers) gives the same. Why:
// docs/decisions/0012-runtime-flags-by-re-exec.md.
const ASYNC_CONTEXT_FRAME = '--experimental-async-context-frame';
const HEAP: ReadonlyArray<[flag: string, value: string]> = [
  ['--max-semi-space-size', '64'],
  ['--heap-growing-percent', '150'],
];

/**
 * What a node process started with `execArgv` and `env` lacks: the flags to add and the environment to run with. A
 * setting given (on the command line, in NODE_OPTIONS, ASYNC_CONTEXT_FRAME=off, any MALLOC_ARENA_MAX) is kept.
 */
export function missingRuntimeSettings(
  execArgv: readonly string[],
  env: NodeJS.ProcessEnv,
): { flags: string[]; env: NodeJS.ProcessEnv } {
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)];
  const major = Number(process.versions.node.split('.')[0]);
  const asyncContextFrame =
    major === 22 && !execArgv.includes(ASYNC_CONTEXT_FRAME) && env.ASYNC_CONTEXT_FRAME !== 'off';
  const heap = HEAP.filter(([flag]) => !given.some((arg) => arg.startsWith(flag))).map(([f, v]) => `${f}=${v}`);
  const arenas = process.platform === 'linux' && env.MALLOC_ARENA_MAX === undefined;
  return {
    flags: [...(asyncContextFrame ? [ASYNC_CONTEXT_FRAME] : []), ...heap],
    env: arenas ? { ...env, MALLOC_ARENA_MAX: '2' } : env,
  };
}
