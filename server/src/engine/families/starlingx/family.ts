// The StarlingX family: a bootstrap overrides file (localhost.yml), one YAML mapping of keys to values.
import type { FamilyModule } from '../types';
import { DETECT } from '../types';
import type { Rule } from '../../rules/types';
import { parseError } from '../../rules/general';
import { starlingxReleases } from './data';
import { starlingxConfigSection } from './config';
import { runRule, reportSyntax } from '../core';
import { isAnsiblePlaybook, isStarlingxName, looksLikeStarlingx, StarlingxContext } from './index';
import { stxComplete, stxHover, stxInlayHints } from './language';
import { parseYaml } from '../../parse/yaml';
import { normalizeVersion } from '../../versions';
import { rule as vPrefix } from './rules/kubernetes-version-v-prefix';
import { rule as unshipped } from './rules/unshipped-kubernetes-version';
import { rule as belowDefault } from './rules/kubernetes-version-below-default';
import { rule as unknownKey } from './rules/unknown-key';
import { rule as keyNotRead } from './rules/key-not-read';
import { rule as invalidType } from './rules/invalid-type';
import { rule as invalidValue } from './rules/invalid-value';
import { rule as releaseNotCovered } from './rules/release-not-covered';

// This family's part of an analysis result (FamilyResults in registry.ts): read by its hover, completion and facts.
declare module '../registry' {
  interface FamilyResults {
    stx?: StarlingxContext;
  }
}

export const starlingxRules: Rule<StarlingxContext>[] = [vPrefix, unshipped, belowDefault, unknownKey, keyNotRead, invalidType, invalidValue, releaseNotCovered];

const YAML_EXT = new Set(['.yml', '.yaml', '']);

export const starlingx: FamilyModule<'starlingx'> = {
  id: 'starlingx',
  title: 'StarlingX bootstrap overrides (`localhost.yml`)',
  // Its section of the configuration (starlingx.release, upgradeFrom): the release every other window is read from.
  config: starlingxConfigSection,
  modelineNames: ['starlingx'],
  serves: { files: [{ ext: '.yaml' }, { ext: '.yml' }], languages: ['yaml'] },
  detect({ file, ext, yaml }) {
    if (!YAML_EXT.has(ext)) return DETECT.no;
    const doc = yaml?.docs.find((d) => !d.empty);
    // An Ansible playbook named localhost.yml (`- hosts: localhost`) is not a bootstrap overrides file: not claimed.
    if (isStarlingxName(file)) return isAnsiblePlaybook(doc) ? DETECT.no : DETECT.name;
    return looksLikeStarlingx(doc) ? DETECT.content : DETECT.no;
  },
  rules: starlingxRules,
  analyze({ input, yaml, emit, stage }) {
    if (!yaml) return {};
    const { config, faults } = input;
    let stx: StarlingxContext | undefined;
    stage('parse', () => reportSyntax(yaml, emit));
    const content = yaml.docs.filter((d) => !d.empty);
    const doc = content[0];
    // Ansible loads a variables file as a single document; a second one makes it fail.
    for (const extra of content.slice(1)) {
      emit(parseError, { message: 'a second YAML document: Ansible reads a bootstrap overrides file as one document and fails on this one', range: { start: extra.rootRange().start, end: extra.rootRange().start + 1 } });
    }
    if (doc && doc.errors.length === 0) {
      stx = stage('context', () => new StarlingxContext(yaml, doc, config.starlingx.release, config.starlingx.source));
      const v = doc.value;
      if (v !== null && (typeof v !== 'object' || Array.isArray(v))) {
        // Read as bootstrap overrides only when the configuration or a modeline says so (detect() leaves a playbook alone).
        const playbook = isAnsiblePlaybook(doc) ? ' (this is an Ansible playbook, a list of plays, not a bootstrap overrides file)' : '';
        emit(parseError, { message: `a StarlingX bootstrap overrides file must be a mapping of keys to values${playbook}`, range: doc.rootRange() });
      } else {
        for (const rule of starlingxRules) runRule(rule, stx!, emit, faults);
      }
    }
    return { stx };
  },
  hover: (r, text, pos) => (r.stx ? stxHover(r.stx, text, pos) : undefined),
  complete: stxComplete,
  inlayHints: stxInlayHints,
  facts: (r) => (r.stx ? { starlingxRelease: r.stx.release.release } : undefined),
  stepsSource: (r) => r.config?.starlingx.source,
  stepsName: 'StarlingX',
  steps: (r) => { const rel = r.stx?.release.release ?? r.config?.starlingx.release.release; return rel ? [rel] : undefined; },
  data: starlingxReleases,
};

/** The kubernetes_version a localhost.yml sets (normalised), for the window of the workspace's other files. */
/**
 * A file with a bootstrap file's name that is no bootstrap file: an Ansible playbook named localhost.yml (a list of
 * plays). It sets no window for the files around it (server/workspace.ts anchorFacts), as detect() does not claim it.
 */
export function localhostIsPlaybook(text: string | undefined): boolean {
  return !!text && isAnsiblePlaybook(parseYaml(text).docs.find((d) => !d.empty));
}

export function localhostKubernetesVersion(text: string | undefined): string | undefined {
  const doc = text ? parseYaml(text).docs.find((d) => !d.empty) : undefined;
  const v = doc && doc.errors.length === 0 ? (doc.value as any)?.kubernetes_version : undefined;
  return typeof v === 'string' ? normalizeVersion(v) : undefined;
}

/**
 * The order in which bootstrap files of one folder are chosen (the workspace's anchor, server/anchor-files.ts): the
 * names StarlingX reads, localhost.yml then localhost.yaml, before any other.
 */
export function localhostRank(name: string): number {
  return name === 'localhost.yml' ? 0 : name === 'localhost.yaml' ? 1 : 2;
}

/** How a user chooses the window when several bootstrap files compete (said in the anchor's note). */
export const LOCALHOST_CHOICE_HINT = 'set kubernetes.window (or starlingx.release) in .skewguard.yaml to choose';
