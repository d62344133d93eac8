// Helpers that turn the catalogue's columns into compact, shared or sortable forms.

/** The rank of each id in code-unit order (PostgreSQL's `COLLATE "C"` for the store's ASCII ids). */
export function idRanks(ids: readonly string[]): Uint32Array {
  const rankOf = new Map<string, number>();
  [...ids].sort().forEach((id, rank) => rankOf.set(id, rank));
  return Uint32Array.from(ids, (id) => rankOf.get(id)!);
}

/** The rank of each number among the distinct values (equal values share a rank), by typed sort and binary search. */
export function numberRanks(values: Float64Array): Uint32Array {
  const sorted = values.slice().sort();
  let distinct = 0;
  for (let i = 0; i < sorted.length; i += 1) if (i === 0 || sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i]!;
  return Uint32Array.from(values, (value) => {
    let low = 0;
    let high = distinct - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle]! < value) low = middle + 1;
      else high = middle;
    }
    return low;
  });
}

/** One shared array per distinct list of values (there are only so many genre combinations). */
export function listInterner(): (values: string[]) => string[] {
  const seen = new Map<string, string[]>();
  return (values) => {
    const key = values.join('\u0000');
    const known = seen.get(key);
    if (known) return known;
    seen.set(key, values);
    return values;
  };
}

/** One shared string per distinct value, instead of one per row read from the database. */
export function interner(): (value: string) => string {
  const seen = new Map<string, string>();
  return (value) => {
    const known = seen.get(value);
    if (known !== undefined) return known;
    seen.set(value, value);
    return value;
  };
}
