// Runs the real service entry point as a child process on a loopback port.
import { spawn, type ChildProcess } from 'node:child_process';
import { missingRuntimeSettings } from '../../src/engine/runtime-settings.ts';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Loaded as a hook in the one process, like `npm start` does: the tsx CLI would put a relay process in between
// that does not let the server drain on SIGTERM.
const TSX_IMPORT = ['--import', 'tsx'];

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface Service {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Environment for a child: the test runner's, minus the database selection (each test picks its own). */
export function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  // ENV_FILE: a developer's .env stays out of the tests' servers unless a test gives a file of its own.
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', ENV_FILE: '/dev/null' };
  delete env.DATABASE_URL;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export interface SpawnOptions {
  /** Start src/server.ts bare, as `npm start` does, so that it restarts itself to take its runtime settings. */
  asNpmStart?: boolean;
}

export function runScript(
  script: string,
  env: Record<string, string | undefined>,
  args: string[] = [],
  { asNpmStart = false }: SpawnOptions = {},
) {
  // Only the server has runtime settings to restart for (given here so that it starts once); scripts run as npm
  // runs them.
  const runtime =
    script === 'src/server.ts' && !asNpmStart
      ? missingRuntimeSettings([], childEnv(env))
      : { flags: [], env: childEnv(env) };
  const child = spawn(process.execPath, [...runtime.flags, ...TSX_IMPORT, script, ...args], {
    cwd: ROOT,
    env: runtime.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/**
 * Starts src/server.ts and resolves once /healthz responds. The free port is only free when asked: a parallel test's
 * outgoing connection can take it before the child listens, so a start that finds it taken tries another.
 */
export async function startService(
  env: Record<string, string | undefined>,
  { timeoutMs = 60_000, ...options }: SpawnOptions & { timeoutMs?: number } = {},
): Promise<Service> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePort(env, timeoutMs, options);
    } catch (err) {
      if (attempt >= 3 || !(err instanceof PortTaken)) throw err;
    }
  }
}

class PortTaken extends Error {}

async function startOnFreePort(
  env: Record<string, string | undefined>,
  timeoutMs: number,
  options: SpawnOptions,
): Promise<Service> {
  const port = await freePort();
  const run = runScript('src/server.ts', { HOST: '127.0.0.1', PORT: String(port), ...env }, [], options);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  run.exited.then((c) => (exitCode = c));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) {
      const message = `service exited with ${exitCode}:\n${run.output()}`;
      throw /port \d+ on [\d.]+ is already in use/.test(run.output()) ? new PortTaken(message) : new Error(message);
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    ...run,
    url,
    stop: async (signal = 'SIGTERM') => {
      if (exitCode === undefined) run.child.kill(signal);
      return run.exited;
    },
  };
}
