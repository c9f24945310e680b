// What the evaluator's builtins cost, charged to the render's step budget (issue #25 item 6). A builtin's work is
// proportional to the size of what it walks and makes (deepCopy, toJson/toYaml, printing, has/uniq/without comparing
// lists whose elements are the same list twice, uniq's loop over pairs): every node visited and every 256 characters
// made or read are charged here, so that a 2-line template that doubles a list each level runs into the budget (a
// positioned "not checked") instead of the watchdog. The renderer sets the meter while it renders; outside a render
// (tests, the engine's own use of the serializers) nothing is charged.

let meter: ((n: number) => void) | undefined;

/** Runs `fn` with `m` charged for the work done inside it (the previous meter back after). */
export function metered<T>(m: (n: number) => void, fn: () => T): T {
  const prev = meter;
  meter = m;
  try { return fn(); } finally { meter = prev; }
}

/** Charges `n` steps (a node visited, a comparison made) to the running render. */
export function charge(n = 1): void { if (meter) meter(n); }

/** Characters per step: a string of 2,000,000 characters (the output cap) costs 7,813 steps. */
export const CHARS_PER_STEP = 256;

/** Charges for a value's top level: a string by its length, a list or map by its count (O(1) to measure). */
export function chargeShallow(v: unknown): void {
  if (!meter) return;
  if (typeof v === 'string') { if (v.length >= CHARS_PER_STEP) meter(Math.floor(v.length / CHARS_PER_STEP)); }
  else if (Array.isArray(v)) { if (v.length) meter(v.length); }
  else if (v instanceof Map) { if (v.size) meter(v.size); }
}
