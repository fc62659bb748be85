// .env, as .env.example invites: npm start, the scripts and the servers tests start read it from the working
// directory (or ENV_FILE). A variable already set in the environment wins over the file, so a deployment's own
// settings are never replaced by a file left behind.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';

type Env = Record<string, string | undefined>;

export interface EnvFileReport {
  path: string;
  /** Names the file set (values are never reported: it holds secrets). */
  applied: string[];
  /** Names the file also has but the environment already set: the environment's values stay. */
  overridden: string[];
}

/** The environment with the file's variables beneath it; `file` is null when there is no file to read. */
export function withEnvFile(env: Env = process.env): { env: Env; file: EnvFileReport | null } {
  const path = resolve(env.ENV_FILE || '.env');
  if (!existsSync(path)) {
    if (env.ENV_FILE) throw new Error(`ENV_FILE names ${path}, which does not exist`);
    return { env, file: null };
  }
  const fromFile = parseEnv(readFileSync(path, 'utf8'));
  const merged: Env = { ...env };
  const applied: string[] = [];
  const overridden: string[] = [];
  for (const [name, value] of Object.entries(fromFile)) {
    if (env[name] !== undefined) overridden.push(name);
    else {
      merged[name] = value;
      applied.push(name);
    }
  }
  return { env: merged, file: { path, applied, overridden } };
}

/** The start-up line that says what the file did. */
export function describeEnvFile(file: EnvFileReport | null): string {
  if (!file) return 'no .env file: configuration from the environment only';
  const kept = file.overridden.length ? `; the environment's own ${file.overridden.join(', ')} kept` : '';
  return `read ${file.path}: ${file.applied.length} variables set from it${kept}`;
}
