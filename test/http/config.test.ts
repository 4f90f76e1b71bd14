// Unit: loadConfig reads the environment once and fails fast with a sentence naming the variable.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_SCHEDULES_DIR, ConfigError, loadConfig } from '../../src/config.ts';
import { apiKeyHashLine, createKeyVerifier, hashApiKey } from '../../src/security/api-keys.ts';

function failure(env: Record<string, string | undefined>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected loadConfig to fail');
}

describe('defaults', () => {
  it('development with nothing set: port 8000 on 127.0.0.1, NV, default schedule, bundled folder, a generated key', () => {
    const { config, generatedApiKey } = loadConfig({});
    expect(config).toMatchObject({
      env: 'development', port: 8000, host: '127.0.0.1', logLevel: 'info', bodyLimitBytes: 102_400,
      defaultAirline: 'NV', defaultSchedule: 'default', schedulesDir: BUNDLED_SCHEDULES_DIR,
      cors: { operatorDomain: null, allowedOrigins: [] },
    });
    expect(BUNDLED_SCHEDULES_DIR.replace(/\/$/, '').endsWith('/schedules')).toBe(true);
    expect(generatedApiKey).toMatch(/^drs_dev_[A-Za-z0-9_-]{43}$/);
    expect(config.apiKeyHashes).toHaveLength(1);
    expect(createKeyVerifier(config.apiKeyHashes)(generatedApiKey!)).toBe(true);
    // The configuration holds the hash only, never the key itself.
    expect(JSON.stringify(config)).not.toContain(generatedApiKey);
  });

  it('each development start mints a different key', () => {
    expect(loadConfig({}).generatedApiKey).not.toBe(loadConfig({}).generatedApiKey);
  });

  it('outside development HOST defaults to 0.0.0.0 and no key is generated', () => {
    const { config, generatedApiKey } = loadConfig({ APP_ENV: 'staging', API_KEYS: 'k1' });
    expect(config.host).toBe('0.0.0.0');
    expect(generatedApiKey).toBeNull();
  });

  it('empty values mean "use the default"', () => {
    expect(loadConfig({ PORT: '', HOST: ' ', API_KEYS: 'k', LOG_LEVEL: '' }).config).toMatchObject({ port: 8000, host: '127.0.0.1', logLevel: 'info' });
  });

  it('explicit values are used; DEFAULT_SCHEDULE loses a .json suffix; a relative SCHEDULES_DIR is made absolute', () => {
    const { config } = loadConfig({
      PORT: '9001', HOST: '::', APP_ENV: 'production', API_KEYS: 'a, b ,,c', DEFAULT_AIRLINE: 'BZ',
      DEFAULT_SCHEDULE: 'small.json', SCHEDULES_DIR: 'some/dir', LOG_LEVEL: 'debug', BODY_LIMIT_BYTES: '2048',
      CORS_OPERATOR_DOMAIN: 'Operator.COM', CORS_ALLOWED_ORIGINS: 'https://client.example.org/, http://localhost:5173',
    });
    expect(config).toMatchObject({
      port: 9001, host: '::', env: 'production', defaultAirline: 'BZ', defaultSchedule: 'small', logLevel: 'debug', bodyLimitBytes: 2048,
      cors: { operatorDomain: 'operator.com', allowedOrigins: ['https://client.example.org', 'http://localhost:5173'] },
    });
    expect(config.schedulesDir.startsWith('/')).toBe(true);
    expect(config.apiKeyHashes).toHaveLength(3);
  });
});

describe('failures name the variable', () => {
  it.each([
    [{ PORT: 'abc' }, "PORT must be a whole number between 0 and 65535 (got 'abc')."],
    [{ PORT: '70000' }, "PORT must be a whole number between 0 and 65535 (got '70000')."],
    [{ PORT: '-1' }, "PORT must be a whole number between 0 and 65535 (got '-1')."],
    [{ APP_ENV: 'prod' }, "APP_ENV must be one of development, staging, production (got 'prod')."],
    [{ LOG_LEVEL: 'verbose' }, "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got 'verbose')."],
    [{ DEFAULT_AIRLINE: 'nv' }, "DEFAULT_AIRLINE must be a two-character airline code of capital letters or digits, such as NV (got 'nv')."],
    [{ BODY_LIMIT_BYTES: '0' }, "BODY_LIMIT_BYTES must be a whole number of bytes between 1 and 100000000 (got '0')."],
    [{ CORS_OPERATOR_DOMAIN: 'https://operator.com' }, "CORS_OPERATOR_DOMAIN must be a bare domain name such as operator.com (no scheme, port or path) (got 'https://operator.com')."],
    [{ DEFAULT_SCHEDULE: '../etc/passwd' }, "DEFAULT_SCHEDULE must be the name of a schedule file, such as default or default.json (got '../etc/passwd')."],
  ])('%o -> %s', (env, message) => {
    expect(failure(env)).toBe(message);
  });

  it('production without keys refuses to start, naming what to set', () => {
    expect(failure({ APP_ENV: 'production' })).toBe(
      'APP_ENV is production but no API key is configured: set API_KEYS or API_KEYS_FILE (mint a key with `npm run key -- production`).',
    );
    expect(failure({ APP_ENV: 'production', API_KEYS: ' , ' })).toContain('no API key is configured');
    expect(failure({ APP_ENV: 'staging' })).toContain('APP_ENV is staging but no API key is configured');
  });

  it('both API_KEYS and API_KEYS_FILE is ambiguous', () => {
    expect(failure({ API_KEYS: 'a', API_KEYS_FILE: '/x' })).toBe('Set either API_KEYS or API_KEYS_FILE, not both.');
  });

  it('a bad origin in CORS_ALLOWED_ORIGINS is named', () => {
    expect(failure({ CORS_ALLOWED_ORIGINS: 'https://ok.example, client.example' })).toContain("CORS_ALLOWED_ORIGINS entry 'client.example'");
    expect(failure({ CORS_ALLOWED_ORIGINS: 'https://x.example/path' })).toContain("CORS_ALLOWED_ORIGINS entry 'https://x.example/path'");
  });

  it('a malformed hash in API_KEYS is named by position, and no key value is ever echoed', () => {
    const secret = 'super-secret-key-value';
    expect(failure({ API_KEYS: `${secret},sha256:abc` })).toBe('API_KEYS entry 2 starts with sha256: but is not followed by 64 hex digits.');
    expect(failure({ API_KEYS: secret, PORT: 'x' })).not.toContain(secret);
  });
});

describe('API_KEYS_FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'drs-keys-'));

  it('reads sha256 lines and plain keys, skipping blanks and comments', () => {
    const file = join(dir, 'staging.keys');
    writeFileSync(file, `# staging keys\n\n${apiKeyHashLine('client-one-key')}\n  ${apiKeyHashLine('client-two-key').toUpperCase().replace('SHA256', 'sha256')}  \nplain-key-three\r\n`);
    const { config, generatedApiKey } = loadConfig({ APP_ENV: 'production', API_KEYS_FILE: file });
    expect(generatedApiKey).toBeNull();
    const verify = createKeyVerifier(config.apiKeyHashes);
    expect(config.apiKeyHashes).toHaveLength(3);
    expect(verify('client-one-key')).toBe(true);
    expect(verify('client-two-key')).toBe(true);
    expect(verify('plain-key-three')).toBe(true);
    expect(verify(apiKeyHashLine('client-one-key'))).toBe(false);
    expect(verify('# staging keys')).toBe(false);
  });

  it('a malformed hash line is named by its line number', () => {
    const file = join(dir, 'bad.keys');
    writeFileSync(file, `${apiKeyHashLine('a')}\nsha256:nothex\n`);
    expect(failure({ API_KEYS_FILE: file })).toBe(`API_KEYS_FILE '${file}' line 2 starts with sha256: but is not followed by 64 hex digits.`);
  });

  it('a missing file is named', () => {
    expect(failure({ API_KEYS_FILE: join(dir, 'missing.keys') })).toBe(`API_KEYS_FILE '${join(dir, 'missing.keys')}' cannot be read (ENOENT).`);
  });

  it('an empty file in production is "no key"', () => {
    const file = join(dir, 'empty.keys');
    writeFileSync(file, '# nothing yet\n');
    expect(failure({ APP_ENV: 'production', API_KEYS_FILE: file })).toContain('no API key is configured');
  });

  it('hashes are SHA-256 digests of the key text', () => {
    expect(hashApiKey('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
