// The runtime's own settings (src/engine/runtime.ts): started bare, as npm start starts it, the server restarts
// itself once to take them; a test's server is given them at spawn and starts once.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startService } from '../helpers/process.ts';
import { tempDirs } from '../helpers/temp.ts';

const tempDir = tempDirs('prode-start-');
const FLAG = '--experimental-async-context-frame';
const SEMI = '--max-semi-space-size';
const args = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
const env = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');

/** NODE_OPTIONS that load a module saying, on stderr, when the process replaces itself (process.execve). */
function restartProbe(): string {
  const file = join(tempDir(), 'restart-probe.mjs');
  const say = "process.stderr.write('restart-probe: execve\\n')";
  writeFileSync(
    file,
    `const execve = process.execve;\nprocess.execve = (...a) => { ${say}; return execve.apply(process, a); };\n`,
  );
  return `--import=${pathToFileURL(file).href}`;
}
const restarts = (output: string) => output.match(/^restart-probe: execve$/gm)?.length ?? 0;

describe('npm start', () => {
  it('restarts itself once (same pid): ACF on Node 22, two malloc arenas, V8 heap sizes', async () => {
    // The re-exec is an engine part: pinned to the full engine, whatever the run's ENGINE.
    const on = await startService(
      { DATA_DIR: tempDir(), NODE_OPTIONS: restartProbe(), ENGINE: 'full', ENGINE_OFF: undefined },
      { asNpmStart: true },
    );
    const off = await startService(
      {
        DATA_DIR: tempDir(),
        ASYNC_CONTEXT_FRAME: 'off',
        MALLOC_ARENA_MAX: '4',
        NODE_OPTIONS: `${SEMI}=8`,
        ENGINE: 'full',
        ENGINE_OFF: undefined,
      },
      { asNpmStart: true },
    );
    try {
      expect(restarts(on.output())).toBe(1);
      // Node 24 has it by default (and refuses the flag).
      expect(args(on.child.pid!).includes(FLAG)).toBe(process.versions.node.startsWith('22.'));
      expect(args(on.child.pid!).some((a) => a.endsWith('src/server.ts'))).toBe(true);
      expect(env(on.child.pid!)).toContain('MALLOC_ARENA_MAX=2');
      expect(args(on.child.pid!)).toContain(`${SEMI}=64`);
      expect(args(on.child.pid!)).toContain('--heap-growing-percent=150');
      expect(args(off.child.pid!)).not.toContain(FLAG);
      expect(env(off.child.pid!)).toContain('MALLOC_ARENA_MAX=4');
      // Given in NODE_OPTIONS: kept, and not overridden on the command line.
      expect(args(off.child.pid!).some((a) => a.startsWith(SEMI))).toBe(false);
      expect(args(off.child.pid!)).toContain('--heap-growing-percent=150');
      expect(env(off.child.pid!)).toContain(`NODE_OPTIONS=${SEMI}=8`);
    } finally {
      expect(await on.stop()).toBe(0);
      expect(await off.stop()).toBe(0);
    }
  });

  it('ENGINE=plain and ENGINE_OFF=runtime start once, with none of them; the ready line names the engine', async () => {
    const plain = await startService(
      { DATA_DIR: tempDir(), NODE_OPTIONS: restartProbe(), ENGINE: 'plain', LOG_LEVEL: 'info' },
      { asNpmStart: true },
    );
    const off = await startService(
      {
        DATA_DIR: tempDir(),
        NODE_OPTIONS: restartProbe(),
        ENGINE: 'full',
        ENGINE_OFF: 'runtime,jit',
        LOG_LEVEL: 'info',
      },
      { asNpmStart: true },
    );
    const ready = (output: string) =>
      JSON.parse(output.split('\n').find((line) => line.includes('prode gateway ready'))!) as Record<string, unknown>;
    try {
      for (const service of [plain, off]) {
        expect(restarts(service.output())).toBe(0);
        expect(args(service.child.pid!)).not.toContain(FLAG);
        expect(args(service.child.pid!)).not.toContain(`${SEMI}=64`);
        expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      }
      expect(ready(plain.output())).toMatchObject({ engine: 'plain' });
      expect(ready(plain.output())).not.toHaveProperty('engineOff');
      expect(ready(off.output())).toMatchObject({ engine: 'full', engineOff: ['runtime', 'jit'] });
    } finally {
      expect(await plain.stop()).toBe(0);
      expect(await off.stop()).toBe(0);
    }
  });

  it("a test's server is given them at spawn, so it starts once and runs with the same settings", async () => {
    // Nothing to seed: the runtime settings are the subject, not the data.
    const service = await startService({ DATA_DIR: tempDir(), SEED_ON_EMPTY: 'false', NODE_OPTIONS: restartProbe() });
    try {
      expect(args(service.child.pid!).includes(FLAG)).toBe(process.versions.node.startsWith('22.'));
      expect(env(service.child.pid!)).toContain('MALLOC_ARENA_MAX=2');
      expect(args(service.child.pid!)).toContain(`${SEMI}=64`);
      expect(args(service.child.pid!)).toContain('--heap-growing-percent=150');
    } finally {
      expect(await service.stop()).toBe(0);
    }
    expect(restarts(service.output())).toBe(0);
  });
});
