// `npm start` under a supervisor (systemd, pm2, `docker stop`, a compose service): the signal goes to the pid the
// supervisor started, npm's, not to node. It must drain exactly as SIGTERM to node does (/readyz 503 for
// SHUTDOWN_DELAY_MS, sockets closed with 1001, requests in flight completed, exit 0) and leave no process behind,
// also when the supervisor signals the whole process group or kills npm outright.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { childEnv, freePort, ROOT } from '../helpers/process.ts';

const DRAIN_MS = 2000;
// npm, migrations of an empty database, a drain: well under this on a quiet machine, not on a loaded one.
const START_AND_STOP_MS = 150_000;
const dirs: string[] = [];
afterAll(() => {
  // A test that failed may leave its server running (the old `npm start` did): stop what this file started.
  for (const dir of dirs) {
    for (const pid of processesOf(dir)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Pids of live processes whose environment names `dir` as their DATA_DIR: the tree one `npm start` made. */
function processesOf(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (/\) Z /.test(stat)) continue; // a zombie waits for its parent to collect its status, it runs nothing
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`DATA_DIR=${dir}`)) pids.push(+entry);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Started {
  npm: ChildProcess;
  dir: string;
  port: number;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `npm start` as a supervisor runs it: a session and process group of its own, on a free port and a new database. */
async function npmStart(): Promise<Started> {
  for (let attempt = 1; ; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), 'prode-supervised-'));
    dirs.push(dir);
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env: childEnv({
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dir,
        SEED_ON_EMPTY: 'false',
        SHUTDOWN_DELAY_MS: String(DRAIN_MS),
        LOG_LEVEL: 'info',
      }),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout!.on('data', (d) => (out += d));
    npm.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      npm.on('exit', (code, signal) => resolve({ code, signal })),
    );
    let gone = false;
    void exited.then(() => (gone = true));
    const url = `http://127.0.0.1:${port}`;
    await until(
      'npm start to serve /healthz',
      async () => (gone || (await fetch(`${url}/healthz`)).ok ? true : undefined),
      60_000,
    );
    if (!gone) return { npm, dir, port, url, output: () => out, exited };
    // The free port was taken by another test before the server listened: try another.
    if (attempt >= 3 || !/already in use/.test(out)) throw new Error(`npm start exited:\n${out}`);
  }
}

/** A graphql-ws socket, acknowledged; resolves `closed` with the code the server closes it with. */
async function liveSocket(url: string) {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ type: 'connection_init' })));
    ws.once('message', (data) =>
      (JSON.parse(String(data)) as { type: string }).type === 'connection_ack'
        ? resolve()
        : reject(new Error(`expected connection_ack, got ${String(data)}`)),
    );
  });
  return { closed };
}

/** A GraphQL request whose body is half sent: in flight until `finish()`, which resolves with the response. */
function heldRequest(port: number) {
  const body = JSON.stringify({ query: '{ __typename }' });
  let respond!: (a: { status: number; body: string }) => void;
  const responded = new Promise<{ status: number; body: string }>((r) => (respond = r));
  const req = request(
    {
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    },
    (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => respond({ status: res.statusCode ?? 0, body: text }));
    },
  );
  req.on('error', (err) => respond({ status: 0, body: String(err) }));
  req.write(body.slice(0, 10));
  return {
    finish: () => {
      req.end(body.slice(10));
      return responded;
    },
  };
}

async function nothingLeft(started: Started) {
  await until('the port to close', async () => ((await listening(started.port)) ? undefined : true));
  await until(`no process of the tree left (${started.dir})`, async () =>
    processesOf(started.dir).length === 0 ? true : undefined,
  );
}

describe('npm start under a supervisor', () => {
  it.each([
    ['SIGTERM to the npm pid (systemd, docker stop on npm start)', 'SIGTERM', 'pid'],
    ['SIGINT to the npm pid (pm2)', 'SIGINT', 'pid'],
    // npm forwards it to node, which gets it directly too (as from a terminal's Ctrl-C): one request, not two.
    ["SIGTERM to npm's process group (systemd's default KillMode)", 'SIGTERM', 'group'],
  ] as const)(
    '%s: drains, exits 0, nothing left',
    async (_, signal, target) => {
      const started = await npmStart();
      const { url, npm } = started;
      try {
        const socket = await liveSocket(url);
        const held = heldRequest(started.port);
        process.kill(target === 'group' ? -npm.pid! : npm.pid!, signal);
        const signalledAt = Date.now();

        // Still serving, but telling load balancers to go away.
        const ready = await until('/readyz to say 503', async () => {
          const res = await fetch(`${url}/readyz`);
          return res.status === 503 ? res : undefined;
        });
        expect(await ready.json()).toMatchObject({ status: 'draining' });
        // After the delay the listener closes: live sockets first, with 1001 (going away)...
        expect(await socket.closed).toBe(1001);
        expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(DRAIN_MS - 100);
        // ...while the request already in flight still gets its response.
        const response = await held.finish();
        expect(response.status).toBe(200);
        expect(JSON.parse(response.body)).toEqual({ data: { __typename: 'Query' } });

        expect(await started.exited).toEqual({ code: 0, signal: null });
        await nothingLeft(started);
        expect(started.output()).toContain(`"msg":"${signal}: draining for ${DRAIN_MS} ms, then closing"`);
        expect(started.output()).not.toMatch(/again: exiting without draining/);
      } finally {
        if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
      }
    },
    START_AND_STOP_MS,
  );

  it(
    'npm killed outright (SIGKILL): node notices its parent is gone, drains and exits',
    async () => {
      const started = await npmStart();
      const { url, npm } = started;
      const socket = await liveSocket(url);
      const held = heldRequest(started.port);
      process.kill(npm.pid!, 'SIGKILL');
      expect(await started.exited).toEqual({ code: null, signal: 'SIGKILL' });

      const ready = await until('/readyz to say 503', async () => {
        const res = await fetch(`${url}/readyz`);
        return res.status === 503 ? res : undefined;
      });
      expect(await ready.json()).toMatchObject({ status: 'draining' });
      expect(await socket.closed).toBe(1001);
      expect((await held.finish()).status).toBe(200);
      await nothingLeft(started);
    },
    START_AND_STOP_MS,
  );

  it("the image runs node itself as PID 1, with npm start's command", () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1];
    expect(cmd && (JSON.parse(cmd) as string[]).join(' ')).toBe(scripts.start.replace(/^exec /, ''));
  });
});
