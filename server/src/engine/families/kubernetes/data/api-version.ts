// An apiVersion's parts, said once for every rule and table that needs them ("apps/v1" -> group "apps", version
// "v1"; "v1" -> the core group ""). An apiVersion has at most one "/"; the last one splits, whatever the input.

/** "apps/v1" -> { group: "apps", version: "v1" }; "v1" -> { group: "", version: "v1" }. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/** The API group of an apiVersion ("" for the core group). */
export function groupOf(apiVersion: string): string {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}
