// Every npm script that runs the service's code runs this first (its pre-script: start, test, db:*, bench*, ...): on
// a Node older than 22 the native SQLite driver crashes (a segfault on Node 20, exit 139 with no word) and vitest 5
// does not start, so say what to do instead. Plain JavaScript in a process of its own, before tsx or any native
// module loads: it must run on any Node. `--warn` (after npm install) only warns.
const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  const line =
    `prode-gateway needs Node 22 LTS or 24; this is Node ${process.version} (end of life). ` +
    'On a Linux x64 machine without it: source .ci/node.sh && node_use 22 (a pinned Node from the npm registry), ' +
    'then run the command again (README, "Quick start").';
  console.error(line);
  if (!process.argv.includes('--warn')) process.exit(1);
}

// npm older than 11.16 ignores package.json's allowScripts and runs every dependency's install script (README,
// "Quick start"); the install still works, so this only warns.
const npm = /\bnpm\/(\d+)\.(\d+)/.exec(process.env.npm_config_user_agent ?? '');
if (process.argv.includes('--warn') && npm && (+npm[1] < 11 || (+npm[1] === 11 && +npm[2] < 16))) {
  console.error(
    `npm ${npm[1]}.${npm[2]} ignores package.json's allowScripts, so dependencies' install scripts ran; ` +
      'npm 11.16 or later (npm install -g npm@11) runs none of them (README, "Quick start").',
  );
}
