// The sign-in settings: Google's client and the issuers accepted, checked when the configuration is read, and an
// http issuer refused in production by the OpenID Connect client itself.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { configurationOf, OidcError } from '../../src/auth/oidc.ts';

const base = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp', LOG_LEVEL: 'silent' };
const load = (env: Record<string, string>) => loadConfig({ ...base, ...env }, () => {});

describe('sign-in configuration', () => {
  it('offers Google only with both its client id and secret', () => {
    expect(load({}).sso.google).toBeNull();
    expect(load({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's' }).sso.google).toEqual({
      issuer: 'https://accounts.google.com',
      clientId: 'id',
      clientSecret: 's',
    });
    expect(() => load({ GOOGLE_CLIENT_ID: 'id' })).toThrow(ConfigError);
  });

  it('takes an http issuer only on loopback and outside production', () => {
    const google = { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's' };
    expect(load({ ...google, GOOGLE_ISSUER: 'http://127.0.0.1:9999' }).sso.google?.issuer).toBe(
      'http://127.0.0.1:9999',
    );
    expect(() => load({ ...google, GOOGLE_ISSUER: 'http://issuer.example.com' })).toThrow(/loopback/);
    expect(() => load({ ...google, NODE_ENV: 'production', GOOGLE_ISSUER: 'http://127.0.0.1:9999' })).toThrow(
      /https:\/\/ in production/,
    );
    expect(() => load({ ...google, GOOGLE_ISSUER: 'ftp://x.test' })).toThrow(ConfigError);
  });

  it('defaults PUBLIC_URL to the gateway on loopback and refuses a malformed one', () => {
    expect(load({ PORT: '4100' }).sso.publicUrl).toBe('http://127.0.0.1:4100');
    expect(load({ PUBLIC_URL: 'https://api.example.com/' }).sso.publicUrl).toBe('https://api.example.com');
    expect(() => load({ PUBLIC_URL: 'api.example.com' })).toThrow(/PUBLIC_URL/);
  });

  it('refuses an http issuer in production without a request', async () => {
    const provider = { issuer: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y' };
    await expect(configurationOf(provider, 'production')).rejects.toBeInstanceOf(OidcError);
    await expect(configurationOf(provider, 'production')).rejects.toMatchObject({ reason: 'insecure' });
  });
});
