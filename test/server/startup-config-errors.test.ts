// A setting the server cannot run with stops the start with one clear line and exit 1. (startup-env.test.ts: the
// .env file; startup-lifecycle.test.ts: a start and its shutdown; startup-runtime.test.ts: the runtime's own
// settings.)
import { describe, expect, it } from 'vitest';
import { runScript } from '../helpers/process.ts';
import { tempDirs } from '../helpers/temp.ts';

const tempDir = tempDirs('prode-start-');

describe('a setting the server cannot run with', () => {
  const badConfigs: Array<[string, Record<string, string>, RegExp]> = [
    ['a bad PORT', { PORT: 'eighty' }, /PORT must be an integer from 0 to 65535/],
    [
      'an unwritable data dir',
      { DATA_DIR: '/etc/hostname/data' },
      /data directory \/etc\/hostname\/data is not writable/,
    ],
    [
      'an unreachable DATABASE_URL',
      { DATABASE_URL: 'postgresql://prode:secret@127.0.0.1:1/prode' },
      /postgresql:\/\/prode:\*\*\*@127\.0\.0\.1:1\/prode: cannot migrate the database: Can't reach database server/,
    ],
    [
      'an unknown DATABASE_URL scheme',
      { DATABASE_URL: 'mysql://localhost/prode' },
      /DATABASE_URL must start with postgresql:\/\//,
    ],
    ['a short JWT_SECRET', { JWT_SECRET: 'short' }, /JWT_SECRET must be at least 32 characters/],
    [
      'an OTLP endpoint that is not a URL',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      /OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/,
    ],
    [
      'an OTLP protocol other than HTTP',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      /OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json, got "grpc"/,
    ],
    [
      'OTLP headers that are not key=value pairs',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_HEADERS: 'api-key' },
      /OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs/,
    ],
  ];
  it.each(badConfigs)('%s: one clear line and exit 1', async (_name, env, message) => {
    const run = runScript('src/server.ts', { DATA_DIR: tempDir(), PORT: '0', JWT_SECRET: 's'.repeat(40), ...env });
    expect(await run.exited).toBe(1);
    const lines = run.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    // One JSON log line, as every other line the server writes, at level fatal.
    const line = JSON.parse(lines[0]) as { level: number; msg: string };
    expect(line.level).toBe(60);
    expect(line.msg).toMatch(message);
    expect(lines[0]).not.toMatch(/secret@/);
  });
});
