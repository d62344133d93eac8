// The list of signed-in devices names a place from a GeoLite2-style database when GEOIP_DB names one,
// and masks the address otherwise (issue 30).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session, SignedInDevice } from '@keystore/contract';
import { authTestApp, type AuthTestApp } from '../modules/auth/test-kit.ts';
import { writeGeoIpDatabase } from '../test/geoip-db.ts';
import { maskedAddress } from './client-ip.ts';
import { openPlaces } from './geoip.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'keystore-geoip-'));
const file = path.join(dir, 'GeoLite2-City.mmdb');
writeGeoIpDatabase(file, '203.0.113.0', { city: 'Berlin', country: 'Germany', isoCode: 'DE' });

describe('places of addresses', () => {
  it('reads a city and country for an address of a known network, nothing for others', async () => {
    const places = await openPlaces(file);
    expect(places.placeOf('203.0.113.77')).toBe('Berlin, Germany');
    expect(places.placeOf('198.51.100.7')).toBeUndefined();
    expect(places.placeOf('not an address')).toBeUndefined();
  });

  it('masks an address without a database', () => {
    expect(maskedAddress('203.0.113.77')).toBe('203.0.113.x');
    expect(maskedAddress('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3:x');
    expect(maskedAddress(null)).toBe('Unknown place');
  });

  it('refuses to start with a GEOIP_DB that is not there', async () => {
    await expect(openPlaces(path.join(dir, 'missing.mmdb'))).rejects.toThrow();
  });
});

describe('the devices list with GEOIP_DB', () => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await authTestApp({ GEOIP_DB: file });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the place of each device', async () => {
    const customer = await t.verifiedCustomer('203.0.113.40');
    const token = (await t.post('/api/auth/login', { email: customer.email, password: customer.password }, { ip: '203.0.113.40' })).json<Session>().token;
    const devices = (await t.app.inject({ url: '/api/auth/sessions', headers: { authorization: `Bearer ${token}` } })).json<SignedInDevice[]>();
    expect(devices).toEqual([expect.objectContaining({ place: 'Berlin, Germany', current: true })]);
  });

  it("tells the visitor's country from the address first, then from the browser's language (issue 31)", async () => {
    const visitor = (ip: string, language?: string) =>
      t.app.inject({ url: '/api/visitor', remoteAddress: ip, headers: language ? { 'accept-language': language } : {} }).then((answer) => answer.json());
    expect(await visitor('203.0.113.9', 'en-US,en;q=0.9')).toEqual({ country: 'DE', region: 'Europe' });
    expect(await visitor('198.51.100.9', 'en-US,en;q=0.9')).toEqual({ country: 'US', region: 'US' });
    expect(await visitor('198.51.100.9', 'ja-JP')).toEqual({ country: 'JP', region: 'Asia' });
    expect(await visitor('198.51.100.9', 'pt-BR')).toEqual({ country: 'BR', region: null });
    expect(await visitor('198.51.100.9', 'en')).toEqual({ country: null, region: null });
    expect(await visitor('198.51.100.9')).toEqual({ country: null, region: null });
  });
});
