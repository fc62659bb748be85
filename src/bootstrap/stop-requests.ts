// How the server is asked to stop: SIGTERM or SIGINT from whoever supervises it, or the loss of npm as its parent.
//
// `npm start` is npm -> node (the script's shell replaced by `exec`), and npm forwards SIGTERM and SIGINT to its
// script. A supervisor that signals the whole process group (a terminal's Ctrl-C, systemd's default KillMode, pm2's
// tree kill) reaches node directly as well, so one request can arrive twice within moments: a repeat within
// REPEAT_MS is that same request; a later one is someone insisting.
//
// npm killed outright (SIGKILL, the OOM killer) forwards nothing: node would serve on, re-parented, with nobody
// watching it. So when an npm script started the process, its parent pid changing is a request to stop too.

const REPEAT_MS = 1000;
const PARENT_POLL_MS = 500;

// Read when the process starts (runtime.ts's execve keeps the pid and the parent): npm may die before listen.
const PARENT = process.ppid;
const STARTED_BY_NPM = process.env.npm_lifecycle_event !== undefined;

/**
 * Calls `stop` once, on the first SIGTERM or SIGINT (or npm gone); `insist` on a signal a second or more after it.
 */
export function onStopRequest(stop: (reason: string) => void, insist: (signal: NodeJS.Signals) => void): void {
  let firstAt: number | undefined;
  const request = (reason: string) => {
    firstAt = Date.now();
    stop(reason);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstAt === undefined) request(signal);
    else if (Date.now() - firstAt >= REPEAT_MS) insist(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  if (STARTED_BY_NPM && PARENT !== 1) {
    const watch = setInterval(() => {
      if (process.ppid === PARENT) return;
      clearInterval(watch);
      if (firstAt === undefined) request(`parent process ${PARENT} (npm) exited`);
    }, PARENT_POLL_MS);
    watch.unref();
  }
}
