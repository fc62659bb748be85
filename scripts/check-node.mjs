// npm start and npm test run this first: on a Node older than 22 the native SQLite driver crashes (a segfault on
// Node 20) and vitest 5 does not start, so say what to do instead. Plain JavaScript: it must run on any Node.
// `--warn` (after npm install) only warns.
const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  const line =
    `prode-gateway needs Node 22 LTS or 24; this is Node ${process.version} (end of life). ` +
    'On a Linux x64 machine without it: source .ci/node.sh && node_use 22 (a pinned Node from the npm registry), ' +
    'then run the command again (README, "Quick start").';
  console.error(line);
  if (!process.argv.includes('--warn')) process.exit(1);
}
