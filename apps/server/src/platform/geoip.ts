// Where an address is, for the list of signed-in devices (issue 30): a GeoLite2-style City database
// (GEOIP_DB, read through the `maxmind` library, which watches the file for updates).
import maxmind, { type CityResponse } from 'maxmind';

/** "Berlin, Germany" for an address the database knows, else undefined. */
export interface Places {
  placeOf(ip: string): string | undefined;
  /** The address's country (ISO 3166-1 alpha-2), for the game page's region warning (issue 31). */
  countryOf(ip: string): string | undefined;
}

/** Opens the database at `path`; a start with a missing or unreadable file fails with its reason. */
export async function openPlaces(path: string): Promise<Places> {
  const reader = await maxmind.open<CityResponse>(path, { watchForUpdates: true, watchForUpdatesNonPersistent: true });
  return {
    placeOf(ip) {
      if (!maxmind.validate(ip)) return undefined;
      const found = reader.get(ip);
      const city = found?.city?.names.en;
      const country = found?.country?.names.en;
      return [city, country].filter(Boolean).join(', ') || undefined;
    },
    countryOf(ip) {
      if (!maxmind.validate(ip)) return undefined;
      return reader.get(ip)?.country?.iso_code;
    },
  };
}
