import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const JWT_SECRET = 'config-test-secret-config-test-secret-01';
const KEY_ENCRYPTION_KEY = 'ab'.repeat(32);
const folders: string[] = [];

function dataDir(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'keystore-config-'));
  folders.push(folder);
  return folder;
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('secrets', () => {
  it('are made once into DATA_DIR for the embedded database outside production', () => {
    const DATA_DIR = dataDir();
    const first = loadConfig({ DATA_DIR }).secrets;
    expect(first.keyEncryption).toMatch(/^[0-9a-f]{64}$/);
    expect(first.jwt.length).toBeGreaterThanOrEqual(32);
    expect(existsSync(path.join(DATA_DIR, 'secrets', 'jwt-secret'))).toBe(true);
    expect(loadConfig({ DATA_DIR }).secrets).toEqual(first);
  });

  it('must be given in production, naming each missing variable', () => {
    const DATA_DIR = dataDir();
    const refused = () => loadConfig({ DATA_DIR, NODE_ENV: 'production' });
    expect(refused).toThrow(/JWT_SECRET .*is required when NODE_ENV=production/);
    expect(refused).toThrow(/KEY_ENCRYPTION_KEY .*is required when NODE_ENV=production/);
    expect(() => loadConfig({ DATA_DIR, NODE_ENV: 'production', JWT_SECRET })).toThrow(/KEY_ENCRYPTION_KEY .*is required/);
    expect(existsSync(path.join(DATA_DIR, 'secrets'))).toBe(false);
    expect(loadConfig({ DATA_DIR, NODE_ENV: 'production', JWT_SECRET, KEY_ENCRYPTION_KEY }).secrets).toMatchObject({ jwt: JWT_SECRET, keyEncryption: KEY_ENCRYPTION_KEY });
  });

  it('must be given on PostgreSQL, where other instances share the database but not DATA_DIR', () => {
    const DATA_DIR = dataDir();
    const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
    expect(() => loadConfig({ DATA_DIR, DATABASE_URL })).toThrow(/JWT_SECRET .*is required when DATABASE_URL is set[\s\S]*KEY_ENCRYPTION_KEY .*is required when DATABASE_URL is set/);
    expect(() => loadConfig({ DATA_DIR, DATABASE_URL, KEY_ENCRYPTION_KEY })).toThrow(/JWT_SECRET/);
    expect(loadConfig({ DATA_DIR, DATABASE_URL, JWT_SECRET, KEY_ENCRYPTION_KEY }).secrets.jwt).toBe(JWT_SECRET);
  });

  it('take the previous ones for rotation: one JWT secret, a comma list of encryption keys', () => {
    const previousKeys = ['cd'.repeat(32), 'ef'.repeat(32)];
    const { secrets } = loadConfig({
      DATA_DIR: dataDir(),
      JWT_SECRET,
      JWT_SECRET_PREVIOUS: 'the-old-secret-the-old-secret-the-old-1',
      KEY_ENCRYPTION_KEY,
      KEY_ENCRYPTION_KEY_PREVIOUS: previousKeys.join(', '),
    });
    expect(secrets).toEqual({ jwt: JWT_SECRET, jwtPrevious: ['the-old-secret-the-old-secret-the-old-1'], keyEncryption: KEY_ENCRYPTION_KEY, keyEncryptionPrevious: previousKeys });
    expect(() => loadConfig({ DATA_DIR: dataDir(), KEY_ENCRYPTION_KEY_PREVIOUS: 'not-a-key' })).toThrow(/KEY_ENCRYPTION_KEY_PREVIOUS must be keys of 64 hex digits/);
  });
});

describe('the demo marketplace', () => {
  it('opens at start only outside production over the demo feed, unless DEMO_MARKET=off', () => {
    const secrets = { JWT_SECRET, KEY_ENCRYPTION_KEY };
    expect(loadConfig({ DATA_DIR: dataDir(), ...secrets }).demoMarket).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir(), ...secrets, NODE_ENV: 'production' }).demoMarket).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), ...secrets, SUPPLIER: 'kinguin', SUPPLIER_API_KEY: 'k' }).demoMarket).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), ...secrets, DEMO_MARKET: 'off' }).demoMarket).toBe(false);
  });
});
