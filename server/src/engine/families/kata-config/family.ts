// The Kata Containers configuration family: configuration*.toml and its config.d drop-ins.
import type { FamilyModule } from '../types';
import { DETECT } from '../types';
import type { Rule } from '../../rules/types';
import { parseError, skippedFile } from '../../rules/general';
import { parseToml, type TomlFile } from '../../parse/toml';
import { kataData } from './data';
import { runRule } from '../core';
import { isKataConfig, detectFlavour, KataContext, resolveKataWindow } from './index';
import { kataComplete, kataHover } from './language';
import { rule as kataUnknownSection } from './rules/unknown-section';
import { rule as kataSectionNotInWindow } from './rules/section-not-in-window';
import { rule as kataUnknownOption } from './rules/unknown-option';
import { rule as kataOptionNotInWindow } from './rules/option-not-in-window';
import { rule as kataRenamedOption } from './rules/renamed-option';
import { rule as kataInvalidType } from './rules/invalid-type';
import { rule as kataInvalidValue } from './rules/invalid-value';
import { rule as kataDropIn } from './rules/drop-in-not-read';
import { rule as kataMissingField } from './rules/missing-field';
import { rule as kataFlavourSwitch } from './rules/flavour-switch';
import { rule as kataSandboxTakeover } from './rules/sandbox-takeover';
import { KataCrossing, claims, within, NOT_READ_RULES } from './crossing';
import type { Emit, Stage } from '../types';
import type { Finding, RuleMeta } from '../../rules/types';
import type { Faults } from '../../faults';
import * as path from 'node:path';
import { kataConfigSection } from './config';
import { kataDeployFact } from './workspace-facts';
import { runtimesNaming, type KataRuntimeFact } from './data/chain';
import type { SourceInfo } from '../../types';

// This family's part of an analysis result (FamilyResults in registry.ts): read by its hover, completion and facts.
declare module '../registry' {
  interface FamilyResults {
    kata?: KataContext;
    toml?: TomlFile;
    /** Under a window that switches flavour: both sides (kata is then the side after the switch). */
    kataCrossing?: KataCrossing;
  }
}

export const kataRules: Rule<KataContext>[] = [
  kataUnknownSection, kataSectionNotInWindow, kataUnknownOption, kataOptionNotInWindow, kataRenamedOption, kataInvalidType, kataInvalidValue, kataMissingField, kataDropIn,
];

export const kataConfig: FamilyModule<'kata-config'> = {
  id: 'kata-config',
  title: 'Kata Containers `configuration.toml`',
  modelineNames: ['kata-config', 'kata'],
  serves: { files: [{ ext: '.toml' }], languages: ['toml', 'kata-toml'] },
  // TOML is never read as YAML.
  look: ({ ext }) => ({ notYaml: ext === '.toml' }),
  detect: ({ file, ext, text }) => (ext === '.toml' && isKataConfig(file, text) ? DETECT.content : DETECT.no),
  rules: [...kataRules, kataFlavourSwitch, kataSandboxTakeover],
  analyze({ input, emit, stage }) {
    const { text, config, faults } = input;
    const toml = stage('parse', () => parseToml(text));
    const e = toml.errors[0];
    if (e?.code === 'TOML_LIMIT') {
      emit(skippedFile, { message: `not checked: ${e.message}`, range: { start: e.start, end: e.end } });
      return { toml };
    }
    if (e) {
      emit(parseError, { message: `${e.code === 'TOML_DEPTH' ? `TOML ${e.message}, so the file is not checked` : `TOML syntax error: ${e.message}`}`, range: { start: e.start, end: e.end } });
      return { toml };
    }
    const w = stage('context', () => resolveKataWindow(config));
    // The containerd runtime entries whose ConfigPath names this file (the node's chain, engine/families/kata-config/data/chain.ts).
    const naming = runtimesNaming(input.neighbours?.kataChain, input.path);
    // A window that switches flavour: both dialects, each at its side of the window (crossing.ts).
    if (w.crossing) return analyzeCrossing(input.path, toml, w as Required<typeof w>, emit, faults, stage, naming, input.neighbours?.kataChain?.root);
    const explicit = config.kata.flavour === 'go' || config.kata.flavour === 'runtime-rs';
    const shims = [...new Set(naming.map((r) => r.flavour))];
    // One file named by a Go runtime and by a runtime-rs runtime of the node: both dialects read it at every release.
    if (!explicit && shims.length > 1) {
      const both = { ...w, crossing: { first: 'go' as const, second: 'runtime-rs' as const, before: w.window, after: w.window, sameNode: true } };
      return analyzeCrossing(input.path, toml, both, emit, faults, stage, naming, input.neighbours?.kataChain?.root);
    }
    const detected = stage('detect', () => detectFlavour(input.path, toml, config));
    const { flavour, source } = !explicit && shims.length === 1 ? { flavour: shims[0], source: runtimeSource(naming, input.neighbours!.kataChain!.root) } : detected;
    const kata = stage('context', () => new KataContext(input.path, toml, flavour, source, w.window, w.source));
    kata.runtimes = naming;
    for (const rule of kataRules) runRule(rule, kata, emit, faults);
    return { kata, toml };
  },
  hover: (r, text, pos) => (r.kata ? kataHover(r.kata, text, pos) : undefined),
  complete: kataComplete,
  facts: (r) => (r.kataCrossing
    ? { kataFlavour: `${r.kataCrossing.first.flavour} → ${r.kataCrossing.second.flavour}`, kataFlavourSource: r.kataCrossing.first.windowSource, kataWindow: r.kataCrossing.windowText }
    : r.kata ? { kataFlavour: r.kata.flavour, kataFlavourSource: r.kata.flavourSource, kataWindow: r.kata.windowText } : undefined),
  stepsSource: (r) => (r.config ? resolveKataWindow(r.config).source : undefined),
  steps: (r) => (r.kataCrossing ? r.kataCrossing.sides.flatMap((s) => s.window) : r.kata?.window ?? (r.config ? resolveKataWindow(r.config).window : undefined)),
  stepsName: 'Kata Containers',
  config: kataConfigSection,
  // kata-deploy's image tags in the workspace: the Kata window when none is configured.
  workspaceFactProducers: [kataDeployFact],
  data: kataData,
};

/** Both dialects of a window that switches flavour: each side's rules at its releases, and kata/flavour-switch. */
function analyzeCrossing(file: string, toml: TomlFile, w: Required<ReturnType<typeof resolveKataWindow>>, emit: Emit, faults: Faults | undefined, stage: Stage, naming: KataRuntimeFact[], root = '') {
  const c = w.crossing;
  const source = c.sameNode && naming.length
    ? runtimeSource(naming, root || path.dirname(naming[0].file))
    : { kind: w.source.kind, detail: `${w.source.detail}: the window's flavours` } as typeof w.source;
  const x = stage('context', () => new KataCrossing(toml, [
    new KataContext(file, toml, c.first, source, c.before, w.source),
    new KataContext(file, toml, c.second, source, c.after, w.source),
  ], !!c.sameNode));
  for (const side of x.sides) side.runtimes = naming.filter((r) => r.flavour === side.flavour);
  const cl = stage('context', () => claims(x, new Set(['block_device_driver', 'enable_guest_swap'])));
  // Each side's findings, then emitted side by side: a not-read finding both sides give at one place is one
  // finding that says both (bothSides), never the first side's alone.
  const found = x.sides.map((side) => {
    const mine = cl.notRead.get(side.flavour)!;
    const out: Array<[RuleMeta, Finding]> = [];
    const sideEmit: Emit = (rule, f) => {
      if (NOT_READ_RULES.has(rule.id) && within(f.range, mine)) return;
      if (rule.id === 'kata/invalid-value' && within(f.range, cl.values)) return;
      out.push([rule, f]);
    };
    for (const rule of kataRules) runRule(rule, side, sideEmit, faults);
    return out;
  });
  const key = (rule: RuleMeta, f: Finding) => (NOT_READ_RULES.has(rule.id) ? `${rule.id}\u0000${f.range.start}\u0000${f.range.end}` : undefined);
  const later = new Map<string, Finding>();
  for (const [rule, f] of found[1]) { const k = key(rule, f); if (k && !later.has(k)) later.set(k, f); }
  const merged = new Set<string>();
  for (const [rule, f] of found[0]) {
    const k = key(rule, f), o = k ? later.get(k) : undefined;
    if (o) merged.add(k!);
    emit(rule, o ? bothSides(f, o) : f);
  }
  for (const [rule, f] of found[1]) { const k = key(rule, f); if (!k || !merged.has(k)) emit(rule, f); }
  runRule(kataFlavourSwitch, x, emit, faults);
  // Both runtimes on one node at the same releases (no switch): nothing is taken over.
  if (!c.sameNode) runRule(kataSandboxTakeover, x, emit, faults);
  return { kata: x.second, toml, kataCrossing: x };
}

/**
 * One not-read finding from both sides at one place: both messages (each names its side's window), the worse
 * severity, and a fix only when both sides offer one (a removal is wrong where the other side reads the key).
 */
function bothSides(a: Finding, b: Finding): Finding {
  if (a.message === b.message) return a;
  // undefined: the rule's default, warning for every not-read rule (NOT_READ_RULES).
  const rank = (s: Finding['severity']) => (s === 'error' ? 3 : s === undefined || s === 'warning' ? 2 : s === 'info' ? 1 : 0);
  const hasFix = (f: Finding) => typeof f.fixes === 'function' || !!f.fixes?.length;
  return { ...a, message: `${a.message}; ${b.message}`, severity: rank(b.severity) > rank(a.severity) ? b.severity : a.severity, fixes: hasFix(a) && hasFix(b) ? a.fixes : [] };
}

/** "containerd runtime kata-qemu-runtime-rs (etc/containerd/config.toml): runtime_path … is runtime-rs's shim". */
function runtimeSource(naming: KataRuntimeFact[], root: string): SourceInfo {
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/') || f;
  return { kind: 'workspace', detail: naming.map((r) => `containerd runtime ${r.runtime} (${rel(r.file)}): ${r.why}`).join('; ') };
}
