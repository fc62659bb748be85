// Imported first by src/server.ts: runtime settings only a new process can take (AsyncContextFrame on Node 22 unless
// ASYNC_CONTEXT_FRAME=off, MALLOC_ARENA_MAX=2, V8 heap sizes; any given is kept, runtime-settings.ts). When one is
// missing the process replaces itself once (process.execve: same pid); never under ENGINE=plain or
// ENGINE_OFF=runtime (read here from the environment: config is not loaded yet).
// Why: docs/decisions/0012-runtime-flags-by-re-exec.md.
import { engineMode, engineOffNames } from './mode.ts';
import { missingRuntimeSettings } from './runtime-settings.ts';

const wanted = engineMode(process.env) === 'full' && !engineOffNames(process.env).includes('runtime');
const missing = missingRuntimeSettings(process.execArgv, process.env);
const changesEnv = missing.env !== process.env;

if (wanted && (missing.flags.length > 0 || changesEnv) && typeof process.execve === 'function') {
  const args = [...missing.flags, ...process.execArgv, ...process.argv.slice(1)];
  process.execve(process.execPath, [process.execPath, ...args], missing.env as Record<string, string>);
}
