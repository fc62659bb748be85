import autocannon from 'autocannon';
const url = process.argv[2]; const paths = process.argv[3].split(','); const c = Number(process.argv[4] ?? 1); const rounds = Number(process.argv[5] ?? 2); const dur = Number(process.argv[6] ?? 5);
const login = await (await fetch(`${url}/auth/login`, {method:'POST', headers:{'content-type':'application/json','x-app-path':'bench'}, body: JSON.stringify({email:'admin@bench.test', password: process.env.BENCH_PASSWORD})})).json();
const headers = { authorization: `Bearer ${login.token}`, 'x-app-path': 'bench' };
for (let r = 0; r < rounds; r++) for (const p of paths) {
  const res = await autocannon({ url: url + p, headers, connections: c, duration: dur });
  console.log(p.padEnd(28), 'c=' + c, res.requests.average.toFixed(1), 'p50', res.latency.p50, 'p99', res.latency.p99);
}
