// The containerd family: containerd's config.toml (/etc/containerd/config.toml and its drop-ins), checked against every
// containerd minor of the containerd window (`containerd.window`, StarlingX's release data or the Kubernetes window).
import type { FamilyModule } from '../types';
import { DETECT } from '../types';
import type { Rule } from '../../rules/types';
import { parseError, skippedFile } from '../../rules/general';
import { parseToml, type TomlFile } from '../../parse/toml';
import { runRule } from '../core';
import { ContainerdContext, containerdData, isContainerdContent, isContainerdName, resolveContainerdWindow } from './index';
import { containerdHover, containerdComplete } from './language';
import { rootFactProducers } from './root-facts';
import { rule as configVersion } from './rules/config-version';
import { rule as notRead } from './rules/not-read';
import { rule as deprecated } from './rules/deprecated';
import { rule as kubernetesSupport } from './rules/kubernetes-support';
import { rule as kataRuntime } from './rules/kata-runtime';
import { rule as kataConfigPath } from './rules/kata-config-path';
import { rule as removedRuntime } from './rules/removed-runtime';
import { kataWindowText } from '../kata-config/config';
import { containerdConfigSection } from './config';

// This family's part of an analysis result (FamilyResults in registry.ts): read by its hover, completion and facts.
declare module '../registry' {
  interface FamilyResults {
    containerd?: ContainerdContext;
    containerdToml?: TomlFile;
  }
}

export const containerdRules: Rule<ContainerdContext>[] = [configVersion, notRead, deprecated, kubernetesSupport, kataRuntime, kataConfigPath, removedRuntime];

export const containerd: FamilyModule<'containerd'> = {
  id: 'containerd',
  title: 'containerd `config.toml`',
  modelineNames: ['containerd'],
  serves: { files: [{ ext: '.toml' }], languages: ['toml'], patterns: ['**/*.toml'] },
  look: ({ ext }) => ({ notYaml: ext === '.toml' }),
  detect: ({ file, ext, text }) => {
    if (ext !== '.toml') return DETECT.no;
    if (isContainerdName(file)) return DETECT.name;
    return isContainerdContent(text) ? DETECT.content : DETECT.no;
  },
  rules: containerdRules,
  analyze({ input, emit, stage }) {
    const { text, config, faults } = input;
    const toml = stage('parse', () => parseToml(text));
    const e = toml.errors[0];
    if (e?.code === 'TOML_LIMIT') {
      emit(skippedFile, { message: `not checked: ${e.message}`, range: { start: e.start, end: e.end } });
      return { containerdToml: toml };
    }
    if (e) {
      emit(parseError, { message: `${e.code === 'TOML_DEPTH' ? `TOML ${e.message}, so the file is not checked` : `TOML syntax error: ${e.message}`}`, range: { start: e.start, end: e.end } });
      return { containerdToml: toml };
    }
    const ctx = stage('context', () => new ContainerdContext(input.path, toml, resolveContainerdWindow(config), config.kubernetes.minors));
    ctx.kataChain = input.neighbours?.kataChain;
    ctx.kataWindowText = config.kata.window ? kataWindowText(config.kata.window) : undefined;
    for (const rule of containerdRules) runRule(rule, ctx, emit, faults);
    return { containerd: ctx, containerdToml: toml };
  },
  hover: (r, text, pos) => (r.containerd ? containerdHover(r.containerd, text, pos) : undefined),
  complete: (r, text, pos) => (r.containerd ? containerdComplete(r.containerd, text, pos) : []),
  facts: (r) => (r.containerd ? {
    containerdWindow: r.containerd.windowText, containerdWindowSource: r.containerd.window.source,
    containerdConfigVersion: r.containerd.version, containerdRuntimes: r.containerd.runtimeNames(),
  } : undefined),
  steps: (r) => r.containerd?.window.minors,
  stepsSource: (r) => r.containerd?.window.source,
  stepsName: 'Containerd',
  config: containerdConfigSection,
  rootFactProducers,
  data: containerdData,
};
