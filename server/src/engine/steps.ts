// The steps of the window a finding concerns: the versions of the file's window (its family's: Kubernetes minors,
// Kata releases, containerd minors, StarlingX releases) at which the file fails because of it. lsp-lint's html and
// markdown matrices and the editor's per-step code lens read it from the diagnostic's data as `steps` (an array of
// version strings). Each family says its window's steps (FamilyModule.steps); the rules say theirs in their own
// terms (removedIn, droppedBy, fatalIn …), which are read here once, for every rule alike.
import { compareVersions } from './versions';

/**
 * Data keys whose value is the list of versions at which the finding applies (the step drops, refuses, rejects or
 * does not serve what the file says). Their union, cut to the window, is the finding's steps.
 */
export const STEP_LIST_KEYS = [
  'steps', 'notReadBy', 'notReadIn', 'droppedBy', 'rejectedBy', 'fatalIn', 'ignoredIn', 'failsIn', 'outsideAt', 'notValidatedFor',
  'notServedAt', 'notDeployedIn', 'neededBy', 'deprecatedAt', 'templateOnly', 'incompatibleWith', 'refusedBy', 'outside',
  'unvouched', 'judgedAt', 'apiservers',
] as const;

const STEP_KEY_SET: ReadonlySet<string> = new Set(STEP_LIST_KEYS);

/** A step is named by a version when they agree as far as both go ("1.21" and "1.21.3"; "3.1.0" and "3.1"). */
export const sameStep = (step: string, v: string): boolean => step === v || v.startsWith(`${step}.`) || step.startsWith(`${v}.`);

const isVersionList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/**
 * The steps of `window` a finding with this data concerns, in window order. A finding that says no step (a syntax
 * error, a key no version knows) concerns every step: the file is wrong whatever step the upgrade stops at.
 * `removedIn` and `deprecatedIn` concern the steps from that version on, `introducedIn` the steps before it.
 */
export function findingSteps(data: Record<string, unknown> | undefined, window: readonly string[]): readonly string[] {
  if (!window.length || !data) return window;
  const said = new Set<string>();
  // The data's own keys are read (a handful), not each of the list's keys looked up in it: once per finding.
  for (const k of Object.keys(data)) {
    if (!STEP_KEY_SET.has(k)) continue;
    const v = data[k];
    if (!isVersionList(v) || !v.length) continue;
    for (const x of v) said.add(x);
  }
  const from = (key: string) => (typeof data[key] === 'string' ? data[key] as string : undefined);
  const removed = from('removedIn'), deprecated = from('deprecatedIn'), introduced = from('introducedIn');
  const saidList = said.size ? [...said] : undefined;
  const inWindow = window.filter((s) => {
    if (saidList && (said.has(s) || saidList.some((v) => sameStep(s, v)))) return true;
    if (removed && compareVersions(s, removed) >= 0) return true;
    if (deprecated && compareVersions(s, deprecated) >= 0) return true;
    if (introduced && compareVersions(s, introduced) < 0) return true;
    return false;
  });
  if (inWindow.length) return inWindow;
  // Versions named but none of them a step of this window (a Flux path, a Kubernetes patch of a bundle): the finding
  // is about the file as a whole, so every step.
  return window;
}

/**
 * A diagnostic's data as the server sends it: with `steps` (the steps it concerns) unless the rule's own data has a
 * `steps` of its own (helm and kustomize rules say theirs, in the same terms; the Flux rules' are per-release records).
 */
export function dataWithSteps(d: { data?: Record<string, unknown>; steps?: readonly string[] }): Record<string, unknown> | undefined {
  if (!d.steps || (d.data && 'steps' in d.data)) return d.data;
  return { ...d.data, steps: d.steps };
}
