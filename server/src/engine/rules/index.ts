// The rule registry: every rule, its metadata and its check. docs/rules/<id>.md is generated from this list.
import type { Rule, RuleMeta } from './types';
import type { StarlingxContext } from '../families/starlingx';
import { generalRules } from './general';
import { rule as vPrefix } from './starlingx/kubernetes-version-v-prefix';
import { rule as unshipped } from './starlingx/unshipped-kubernetes-version';
import { rule as belowDefault } from './starlingx/kubernetes-version-below-default';
import { rule as unknownKey } from './starlingx/unknown-key';
import { rule as keyNotRead } from './starlingx/key-not-read';
import { rule as invalidType } from './starlingx/invalid-type';
import { rule as invalidValue } from './starlingx/invalid-value';
import type { KubernetesContext } from '../families/kubernetes';
import { rule as removedApi } from './kubernetes/removed-api';
import { rule as deprecatedApi } from './kubernetes/deprecated-api';
import { rule as notYetServed } from './kubernetes/api-not-yet-served';
import { rule as noCommon } from './kubernetes/no-common-api-version';
import { helmTemplate, staleData, windowPastData } from './kubernetes/engine-notes';
import { rule as componentNotValidated } from './kubernetes/component-not-validated';
import { rule as controlPlaneSkew } from './kubernetes/control-plane-skew';
import { rule as nodeComponentSkew } from './kubernetes/node-component-skew';
import { rule as kubeadmVersion } from './kubernetes/kubeadm-version';
import type { KataContext } from '../families/kata';
import { rule as kataUnknownSection } from './kata/unknown-section';
import { rule as kataSectionNotInWindow } from './kata/section-not-in-window';
import { rule as kataUnknownOption } from './kata/unknown-option';
import { rule as kataOptionNotInWindow } from './kata/option-not-in-window';
import { rule as kataRenamedOption } from './kata/renamed-option';
import { rule as kataInvalidType } from './kata/invalid-type';
import { rule as kataInvalidValue } from './kata/invalid-value';
import { rule as kataDropIn } from './kata/drop-in-not-read';
import type { PersistContext } from '../families/kata-persist';
import { rule as persistFieldNotRead } from './kata-persist/field-not-read';
import { rule as persistFieldType } from './kata-persist/field-type-mismatch';
import { rule as persistMissing } from './kata-persist/missing-field';
import { rule as persistVersion } from './kata-persist/persist-version';
import { legacyStore } from './kata-persist/legacy-store';

export const starlingxRules: Rule<StarlingxContext>[] = [vPrefix, unshipped, belowDefault, unknownKey, keyNotRead, invalidType, invalidValue];

export const kubernetesRules: Rule<KubernetesContext>[] = [
  removedApi, deprecatedApi, notYetServed, noCommon, componentNotValidated, controlPlaneSkew, nodeComponentSkew, kubeadmVersion,
];

export const kataRules: Rule<KataContext>[] = [
  kataUnknownSection, kataSectionNotInWindow, kataUnknownOption, kataOptionNotInWindow, kataRenamedOption, kataInvalidType, kataInvalidValue, kataDropIn,
];

export const persistRules: Rule<PersistContext>[] = [persistFieldNotRead, persistFieldType, persistMissing, persistVersion];

export const allRules: RuleMeta[] = [
  ...generalRules, ...starlingxRules, ...kubernetesRules, helmTemplate, staleData, windowPastData, ...kataRules, ...persistRules, legacyStore,
];

export const ruleIds = new Set(allRules.map((r) => r.id));

/** Rules whose metadata says no suppression comment silences them. */
export const notSuppressible = new Set(allRules.filter((r) => r.suppressible === false).map((r) => r.id));
/** Rules whose metadata fixes their severity: `rules:` / `--rule` / `skewguard.rules` do not change it. */
export const fixedSeverity = new Set(allRules.filter((r) => r.fixedSeverity).map((r) => r.id));

export function ruleById(id: string): RuleMeta | undefined {
  return allRules.find((r) => r.id === id);
}

export const DOCS_BASE = 'https://github.com/skewguard/skewguard/blob/main/docs/rules/';
export function docsUrl(id: string): string { return `${DOCS_BASE}${id}.md`; }
