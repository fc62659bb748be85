// A private PostgreSQL cluster a test may stop and start (the suite's shared server must stay up).
// Uses Debian's server binaries, which .ci/run installs; postgres refuses to run as root, so as root the tools
// run as the postgres user.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './process.ts';

export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : null;
}

export interface PgCluster {
  url: string;
  stop(): void;
  start(): void;
  destroy(): void;
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = postgresBinDir();
  if (!bin)
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql (run .ci/run or apt-get install postgresql)',
    );
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
      : [join(bin, tool), args];
    execFileSync(cmd, argv, { stdio: 'pipe', timeout: 60_000 });
  };
  const dir = mkdtempSync('/tmp/prode-pg-outage-');
  chmodSync(dir, 0o755);
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'prode', '-A', 'trust', '-E', 'UTF8', '--no-locale']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      'start',
      '-o',
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off`,
    ]);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'prode', 'prode']);
  return {
    url: `postgresql://prode@127.0.0.1:${port}/prode`,
    stop,
    start,
    destroy() {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
