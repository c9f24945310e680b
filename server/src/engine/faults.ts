// Fault injection, for tests only: the language server reads SKEWGUARD_FAULT=<stage>[,<stage>…] once at start and
// hands the set to the engine, which makes the named stages throw. It proves that every failure ends up as a
// skewguard/internal-error diagnostic; nothing else reads it, and an unset variable costs one Set lookup per stage.
export type Faults = ReadonlySet<string>;

export function parseFaults(spec: string | undefined): Set<string> {
  return new Set((spec ?? '').split(',').map((s) => s.trim()).filter(Boolean));
}

/** Throws when `stage` is in the set (`rule` stands for every `rule:<id>`). */
export function injectFault(faults: Faults | undefined, stage: string): void {
  if (!faults || faults.size === 0) return;
  if (faults.has(stage) || (stage.startsWith('rule:') && faults.has('rule'))) {
    throw new Error(`fault injected by SKEWGUARD_FAULT in stage ${stage}`);
  }
}
