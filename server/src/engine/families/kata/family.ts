// The Kata Containers configuration family: configuration*.toml and its config.d drop-ins.
import type { FamilyModule } from '../types';
import { DETECT } from '../types';
import type { Rule } from '../../rules/types';
import { parseError, skippedFile } from '../../rules/general';
import { parseToml, type TomlFile } from '../../parse/toml';
import { kataData } from '../../kata/data';
import { runRule } from '../core';
import { isKataConfig, detectFlavour, KataContext, resolveKataWindow } from './index';
import { kataComplete, kataHover } from './language';
import { rule as kataUnknownSection } from '../../rules/kata/unknown-section';
import { rule as kataSectionNotInWindow } from '../../rules/kata/section-not-in-window';
import { rule as kataUnknownOption } from '../../rules/kata/unknown-option';
import { rule as kataOptionNotInWindow } from '../../rules/kata/option-not-in-window';
import { rule as kataRenamedOption } from '../../rules/kata/renamed-option';
import { rule as kataInvalidType } from '../../rules/kata/invalid-type';
import { rule as kataInvalidValue } from '../../rules/kata/invalid-value';
import { rule as kataDropIn } from '../../rules/kata/drop-in-not-read';

// This family's part of an analysis result (FamilyResults in registry.ts): read by its hover, completion and facts.
declare module '../registry' {
  interface FamilyResults {
    kata?: KataContext;
    toml?: TomlFile;
  }
}

export const kataRules: Rule<KataContext>[] = [
  kataUnknownSection, kataSectionNotInWindow, kataUnknownOption, kataOptionNotInWindow, kataRenamedOption, kataInvalidType, kataInvalidValue, kataDropIn,
];

export const kataConfig: FamilyModule<'kata-config'> = {
  id: 'kata-config',
  title: 'Kata Containers `configuration.toml`',
  modelineNames: ['kata-config', 'kata'],
  // TOML is never read as YAML.
  look: ({ ext }) => ({ notYaml: ext === '.toml' }),
  detect: ({ file, ext, text }) => (ext === '.toml' && isKataConfig(file, text) ? DETECT.content : DETECT.no),
  rules: kataRules,
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
    const { flavour, source } = stage('detect', () => detectFlavour(input.path, toml, config));
    const kata = stage('context', () => { const w = resolveKataWindow(config); return new KataContext(input.path, toml, flavour, source, w.window, w.source); });
    for (const rule of kataRules) runRule(rule, kata, emit, faults);
    return { kata, toml };
  },
  hover: (r, text, pos) => (r.kata ? kataHover(r.kata, text, pos) : undefined),
  complete: kataComplete,
  facts: (r) => (r.kata ? { kataFlavour: r.kata.flavour, kataFlavourSource: r.kata.flavourSource, kataWindow: r.kata.windowText } : undefined),
  steps: (r) => r.kata?.window ?? (r.config ? resolveKataWindow(r.config).window : undefined),
  data: kataData,
};
