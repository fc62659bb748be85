// Imported first by src/server.ts, before the service's modules are loaded: settings of the runtime itself, which
// only a new process can take. When one is missing the process replaces itself, once, with one that has them
// (process.execve: same pid, same arguments, so signals, logs and supervisors see nothing change).
//
// - AsyncLocalStorage (each request's SQL statement count, its tracing context) runs on async_hooks in Node 22: a
//   hook on every promise, about a tenth of a deep query's time in the profiles. Node 24 runs it on
//   AsyncContextFrame, and Node 22 does too with --experimental-async-context-frame (side by side on SQLite at
//   scale 1, 2026-11-24: GET /tournaments/me 15.0 and 12.8 req/s without it, 26.2 and 18.4 with it at concurrency
//   1). Node 24 refuses the flag, so it cannot go in `npm start`. ASYNC_CONTEXT_FRAME=off keeps Node 22's default.
// - glibc gives every thread that allocates (the libuv pool, V8's helpers) malloc arenas of its own, and a burst of
//   large answers leaves them fragmented: MALLOC_ARENA_MAX=2 took 75 MiB off the peak RSS of 16 concurrent
//   GET /tournaments/me at the same throughput (docs/performance.md). Any MALLOC_ARENA_MAX given is kept.
// - V8's heap, sized for answers of 700 KB that allocate over 20 MB each while they are built:
//   - --max-semi-space-size=64: the young generation grows to 16 MiB semi-spaces by default, so the scavenger kept
//     copying answers still under construction (a quarter of the CPU at 16 concurrent GET /tournaments/me);
//   - --heap-growing-percent=150: after a full collection V8 let the old generation grow up to four times what
//     survived (80 to 335 MB) before the next one; 2.5 times keeps the peak RSS down, for a few more collections.
//   Together, side by side (docs/performance.md): 24% more requests at 16 concurrent GET /tournaments/me and 60-100
//   MiB less peak RSS than 32 MiB semi-spaces alone, the same rate at concurrency 1. A setting given (on the command
//   line, or the semi-space size in NODE_OPTIONS) is kept.
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
