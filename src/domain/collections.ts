// The one multimap helper every room uses (indexes built once at load or per request).

/** Append `value` to the list under `key`, creating the list on first use. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value); else map.set(key, [value]);
}
