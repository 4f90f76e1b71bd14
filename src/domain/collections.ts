// The collection helpers every room uses: a multimap (indexes built once at load or per request) and a
// bounded map of what was made most recently (caches kept between requests).

/** Append `value` to the list under `key`, creating the list on first use. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value); else map.set(key, [value]);
}

/**
 * The value under `key`, made by `make` the first time; `map` keeps at most `limit` values, the least
 * recently used going first (a Map iterates in insertion order, so each use moves its key last).
 */
export function keptRecently<K, V>(map: Map<K, V>, key: K, limit: number, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) value = make(); else map.delete(key);
  map.set(key, value);
  if (map.size > limit) map.delete(map.keys().next().value!);
  return value;
}
