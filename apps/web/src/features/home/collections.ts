import collections from './collections.json';

/** A themed shelf of the home carousel: a title, a few real games as examples, and the store view that holds them. */
export interface Collection {
  title: string;
  description: string;
  /** The store with the filter, search or sort that lists the collection. */
  to: string;
  /** The two colours of the slide's backdrop, from and to; dark enough for white text to stay readable. */
  colors: readonly string[];
}

/**
 * The ten static collections of SPEC §2 (Home), kept as data in collections.json; each link was
 * checked against the demo catalogue to list something.
 */
export const COLLECTIONS: readonly Collection[] = collections;
