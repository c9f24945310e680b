// Get-or-compute over a Map or WeakMap: the one shape of every cache in the engine and the server. A Map cache
// has a bound, because its keys (versions, table names, kinds, windows) can come from user files; it is emptied
// when full, which costs a recomputation, never a wrong answer.

/** map's value for key, else compute()'s, stored; the map is emptied first when it holds `limit` entries. */
export function memoIn<K, V>(map: Map<K, V>, key: K, compute: () => V, limit = Infinity): V {
  // One lookup when the value is there (has() then get() hashes the key twice); has() only for a stored undefined.
  const hit = map.get(key);
  if (hit !== undefined || map.has(key)) return hit as V;
  const v = compute();
  if (map.size >= limit) map.clear();
  map.set(key, v);
  return v;
}

/** The same over a WeakMap (keyed by objects that live as long as they are used: data rows, configs, facts). */
export function weakMemoIn<K extends object, V>(map: WeakMap<K, V>, key: K, compute: () => V): V {
  const hit = map.get(key);
  if (hit !== undefined || map.has(key)) return hit as V;
  const v = compute();
  map.set(key, v);
  return v;
}
