// What the operator-company tests share: a migrated database and the environment of a production start on it, a
// stranger's sign-up in the operators' company, and the start's warning about companies with open sign-up.
import { emptyTarget, templateCopy } from './db.ts';

/**
 * A database of the suite's kind with no rows (migrated, a copy of the template; or not even migrated, for the
 * script that migrates it on start) and a production environment for the server and scripts on it.
 */
export async function productionTarget(dataDir: string, { migrated = true } = {}) {
  const { target, drop } = migrated ? await templateCopy('migrated') : await emptyTarget();
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: target.provider === 'postgresql' ? target.url : `file:${target.file}`,
    NODE_ENV: 'production',
    JWT_SECRET: 's'.repeat(40),
    LOG_LEVEL: 'info',
  };
  return { target, drop, env };
}

export async function register(url: string, email: string) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-path': 'operator' },
    body: JSON.stringify({
      query: 'mutation($i: RegisterInput!) { register(input: $i) { user { id } } }',
      variables: { i: { email, name: 'Stranger', password: 'Stranger-password-2026!' } },
    }),
  });
  return (await res.json()) as { data?: unknown; errors?: Array<{ message: string; extensions: { code: string } }> };
}

/** The start's lines warning about open sign-up in companies where an account has the manager role. */
export const openWarning = (output: string) =>
  output
    .split('\n')
    .filter((l) => l.includes('sign-up is open in companies where an account has the manager role'))
    .map((l) => JSON.parse(l) as { level: number; msg: string });
