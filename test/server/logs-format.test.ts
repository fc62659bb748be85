// Logs a person can read, from the real entry points: a LOG_LEVEL or LOG_FORMAT the logger does not know stops the
// start with one line; LOG_FORMAT=pretty prints readable lines up to the last one before exit; no e-mail address
// reaches a line. (logs-session.test.ts and logs-tick.test.ts: what a normal session and a notifications tick log.)
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { TEST_JWT_SECRET } from '../helpers/app.ts';
import { EMAIL } from '../helpers/logs.ts';
import { runScript, startService } from '../helpers/process.ts';
import { tempDirs } from '../helpers/temp.ts';

const tempDir = tempDirs('prode-logs-');

describe('LOG_LEVEL and LOG_FORMAT', () => {
  const base = { NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, DATA_DIR: tmpdir() };

  it("take the logger's words (any case); another word is a ConfigError of one line", () => {
    expect(loadConfig({ ...base, LOG_LEVEL: 'Debug', LOG_FORMAT: 'PRETTY' })).toMatchObject({
      logLevel: 'debug',
      logFormat: 'pretty',
    });
    expect(loadConfig(base)).toMatchObject({ logLevel: 'warn', logFormat: 'json' });
    expect(() => loadConfig({ ...base, LOG_LEVEL: 'verbose' })).toThrow(
      new ConfigError('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"'),
    );
    expect(() => loadConfig({ ...base, LOG_FORMAT: 'xml' })).toThrow(
      new ConfigError('LOG_FORMAT must be one of json, pretty, got "xml"'),
    );
  });

  it.each([
    ['LOG_LEVEL', 'loud', /^configuration error: LOG_LEVEL must be one of fatal, .* got "loud"/],
    ['LOG_FORMAT', 'yaml', /^configuration error: LOG_FORMAT must be one of json, pretty, got "yaml"/],
  ])('%s=%s stops the server with one line and exit 1', async (name, value, message) => {
    const run = runScript('src/server.ts', { [name]: value, DATA_DIR: tempDir() });
    // A server that starts anyway is not left behind.
    const late = setTimeout(() => run.child.kill('SIGKILL'), 30_000);
    const code = await run.exited;
    clearTimeout(late);
    expect(code).toBe(1);
    const lines = run.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 60, msg: expect.stringMatching(message) });
  });

  it('LOG_FORMAT=pretty prints readable lines, the last ones before exit included', async () => {
    const service = await startService({
      DATA_DIR: tempDir(),
      LOG_FORMAT: 'pretty',
      LOG_LEVEL: 'info',
      SEED_ON_EMPTY: 'false',
      JWT_SECRET: TEST_JWT_SECRET,
    });
    expect(await service.stop('SIGTERM')).toBe(0);
    const lines = service.output().trim().split('\n');
    expect(lines.filter((l) => l.startsWith('{'))).toEqual([]);
    expect(service.output()).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: prode gateway ready$/m);
    expect(service.output()).toMatch(/^ {4}version: "\d+\.\d+\.\d+"$/m);
    expect(lines.at(-1)).toMatch(/^\[[\d:.]+\] INFO: SIGTERM: draining for \d+ ms, then closing$/);
  }, 120_000);
});

describe('the logger', () => {
  it('replaces an e-mail address wherever it reaches a line, and drops the fields that hold one', () => {
    const written: string[] = [];
    const log = createLogger({ logLevel: 'info', logFormat: 'json' }, { write: (l) => void written.push(l) });
    log.info({ email: 'ann@example.test', user: { to: 'bob@example.test' } }, 'hello');
    log.warn({ err: '550 5.1.1 <carol.d+x@mail.example.co.uk>: Recipient address rejected' }, 'e-mail not sent');
    log.info('sent to dave@example.test');
    expect(written.join('')).not.toMatch(EMAIL);
    expect(JSON.parse(written[1]).err).toBe('550 5.1.1 <[e-mail]>: Recipient address rejected');
    expect(JSON.parse(written[2]).msg).toBe('sent to [e-mail]');
  });
});
