import type { Config } from '../../config.ts';
import { DemoSupplier } from './demo.ts';
import { KinguinSupplier } from './kinguin.ts';
import type { Supplier } from './supplier.ts';

/** The key supplier the configuration names; the app builds one for the catalogue's syncs and the orders' deliveries (a demo supplier remembers its orders in memory). */
export function supplierFromConfig(config: Config): Supplier {
  if (config.supplier.name === 'kinguin') {
    return new KinguinSupplier({ apiUrl: config.supplier.apiUrl, apiKey: config.supplier.apiKey ?? '', timeoutMs: config.supplier.timeoutMs });
  }
  return new DemoSupplier();
}
