// Where a provider may be: the address and URL checks of src/auth/oidc-fetch.ts, with the production switch.
import { describe, expect, it } from 'vitest';
import { addressProblem, providerFetch, urlProblem } from '../../src/auth/oidc-fetch.ts';

describe('addressProblem', () => {
  const internal = [
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'febf::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
  ];
  const external = ['8.8.8.8', '172.15.255.255', '172.32.0.1', '192.169.0.1', '2001:4860:4860::8888', 'fec0::1'];

  it('refuses loopback, private, link-local, unique-local and unspecified addresses in production', () => {
    for (const address of internal) expect(addressProblem(address, 'production'), address).toMatch(/internal/);
    for (const address of external) expect(addressProblem(address, 'production'), address).toBeNull();
    expect(addressProblem('not-an-ip', 'production')).toMatch(/not an IP/);
  });

  it('allows every address outside production (loopback issuers of development and tests)', () => {
    for (const address of [...internal, ...external]) expect(addressProblem(address, 'development')).toBeNull();
    expect(addressProblem('127.0.0.1', 'test')).toBeNull();
  });
});

describe('urlProblem', () => {
  it('allows http only to loopback and only outside production', () => {
    expect(urlProblem(new URL('https://idp.example.com/x'), 'production')).toBeNull();
    expect(urlProblem(new URL('http://127.0.0.1:9/x'), 'production')).toMatch(/production/);
    expect(urlProblem(new URL('http://127.0.0.1:9/x'), 'development')).toBeNull();
    expect(urlProblem(new URL('http://[::1]:9/x'), 'test')).toBeNull();
    expect(urlProblem(new URL('http://169.254.169.254/latest'), 'development')).toMatch(/loopback/);
    expect(urlProblem(new URL('ftp://idp.example.com/'), 'development')).toMatch(/not https/);
  });
});

describe('providerFetch in production', () => {
  const get = (url: string) => providerFetch('production')(url, { method: 'GET', headers: {} });

  it('refuses a host that resolves to an internal address, and an internal address named directly', async () => {
    await expect(get('https://localhost:9/.well-known/openid-configuration')).rejects.toThrow(/internal address/);
    await expect(get('https://10.0.0.1/.well-known/openid-configuration')).rejects.toThrow(/internal address/);
    await expect(get('https://[fd00::1]/jwks')).rejects.toThrow(/internal address/);
    await expect(get('http://idp.example.com/jwks')).rejects.toThrow(/production/);
  });
});
