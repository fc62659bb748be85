// Imported first by src/server.ts: runtime settings only a new process can take (AsyncContextFrame on Node 22 unless
// ASYNC_CONTEXT_FRAME=off, MALLOC_ARENA_MAX=2, V8 heap sizes; any given is kept). When one is missing the process
// replaces itself once (process.execve: same pid). Why: docs/decisions/0012-runtime-flags-by-re-exec.md.
const FLAG = '--experimental-async-context-frame';
const major = Number(process.versions.node.split('.')[0]);
const HEAP: ReadonlyArray<[flag: string, value: string]> = [
  ['--max-semi-space-size', '64'],
  ['--heap-growing-percent', '150'],
];

const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
const wantsFlag = major === 22 && !process.execArgv.includes(FLAG) && process.env.ASYNC_CONTEXT_FRAME !== 'off';
const wantsArenas = process.platform === 'linux' && process.env.MALLOC_ARENA_MAX === undefined;
const heapFlags = HEAP.filter(([flag]) => !given.some((arg) => arg.startsWith(flag))).map(([f, v]) => `${f}=${v}`);

if ((wantsFlag || wantsArenas || heapFlags.length > 0) && typeof process.execve === 'function') {
  const env = wantsArenas ? { ...process.env, MALLOC_ARENA_MAX: '2' } : process.env;
  const args = [...(wantsFlag ? [FLAG] : []), ...heapFlags, ...process.execArgv, ...process.argv.slice(1)];
  process.execve(process.execPath, [process.execPath, ...args], env as Record<string, string>);
}
