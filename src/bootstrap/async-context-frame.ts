// Imported first by src/server.ts. AsyncLocalStorage (each request's SQL statement count, its tracing context)
// runs on async_hooks in Node 22: a hook on every promise, about a tenth of a deep query's time in the profiles.
// Node 24 runs it on AsyncContextFrame instead, and Node 22 does too with --experimental-async-context-frame
// (side by side on SQLite at scale 1, 2026-11-24: GET /tournaments/me 15.0 and 12.8 req/s without it, 26.2 and
// 18.4 with it at concurrency 1; the deep tournaments query 45.6 and 38.0 against 55.6 and 45.2). Node 24 refuses
// the flag, so it cannot go in `npm start`: on Node 22 the process replaces itself with one that has it (same pid,
// same arguments and environment, so signals, logs and supervisors see nothing change). ASYNC_CONTEXT_FRAME=off in
// the environment keeps Node 22's default.
const FLAG = '--experimental-async-context-frame';
const major = Number(process.versions.node.split('.')[0]);

if (
  major === 22 &&
  !process.execArgv.includes(FLAG) &&
  process.env.ASYNC_CONTEXT_FRAME !== 'off' &&
  typeof process.execve === 'function'
) {
  process.execve(process.execPath, [process.execPath, FLAG, ...process.execArgv, ...process.argv.slice(1)]);
}
