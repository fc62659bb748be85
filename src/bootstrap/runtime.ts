// Imported first by src/server.ts: settings of the runtime itself, which only a new process can take. When one is
// missing the process replaces itself, once, with one that has them (process.execve: same pid, same arguments, so
// signals, logs and supervisors see nothing change).
//
// - AsyncLocalStorage (each request's SQL statement count, its tracing context) runs on async_hooks in Node 22: a
//   hook on every promise, about a tenth of a deep query's time in the profiles. Node 24 runs it on
//   AsyncContextFrame, and Node 22 does too with --experimental-async-context-frame (side by side on SQLite at
//   scale 1, 2026-11-24: GET /tournaments/me 15.0 and 12.8 req/s without it, 26.2 and 18.4 with it at concurrency
//   1). Node 24 refuses the flag, so it cannot go in `npm start`. ASYNC_CONTEXT_FRAME=off keeps Node 22's default.
// - glibc gives every thread that allocates (the libuv pool, V8's helpers) malloc arenas of its own, and a burst of
//   large answers leaves them fragmented: MALLOC_ARENA_MAX=2 took 75 MiB off the peak RSS of 16 concurrent
//   GET /tournaments/me at the same throughput (docs/performance.md). Any MALLOC_ARENA_MAX given is kept.
// - V8's young generation grows to 16 MiB semi-spaces. A 700 KB REST answer allocates over 20 MB while it is
//   built, and a few built at once kept the scavenger copying them: a quarter of the CPU at 16 concurrent
//   GET /tournaments/me. 32 MiB semi-spaces took a third of that time off, for 12% more requests served at about
//   the same peak RSS (64 MiB: more requests, but 100 MiB more RSS). A --max-semi-space-size given (in NODE_OPTIONS
//   or on the command line) is kept.
const FLAG = '--experimental-async-context-frame';
const major = Number(process.versions.node.split('.')[0]);

const wantsFlag = major === 22 && !process.execArgv.includes(FLAG) && process.env.ASYNC_CONTEXT_FRAME !== 'off';
const wantsArenas = process.platform === 'linux' && process.env.MALLOC_ARENA_MAX === undefined;
const SEMI_SPACE = '--max-semi-space-size';
const wantsSemiSpace = ![...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((arg) =>
  arg.startsWith(SEMI_SPACE),
);

if ((wantsFlag || wantsArenas || wantsSemiSpace) && typeof process.execve === 'function') {
  const env = wantsArenas ? { ...process.env, MALLOC_ARENA_MAX: '2' } : process.env;
  const flags = [...(wantsFlag ? [FLAG] : []), ...(wantsSemiSpace ? [`${SEMI_SPACE}=32`] : [])];
  const args = [...flags, ...process.execArgv, ...process.argv.slice(1)];
  process.execve(process.execPath, [process.execPath, ...args], env as Record<string, string>);
}
