// The window one click away (VS Code's status item menu, "Change window…"): the choices a person picks from, and
// the new text of the .skewguard.yaml that applies to a file with one part of the window changed (created when
// missing). The text is checked with the validator the server and lsp-lint use (parseConfig): a value it rejects is
// said, and nothing is written. The client applies the text as one edit and saves it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Connection } from 'vscode-languageserver/node';
import { parseConfig, CONFIG_SECTIONS } from '../engine/config';
import type { WindowPart as PartSpec } from '../engine/config-core';
import { parseYamlFull } from '../engine/parse/yaml';
import { YamlEditor } from '../engine/parse/yaml-edit';
import { ruleIds } from '../engine/rules';
import { CONFIG_FILENAMES } from '../shared/names';
import type { WorkspaceState } from './workspace';

import {
  WindowChoicesRequest, WindowEditRequest, type WindowPart, type WindowEditParams, type WindowEditResult, type WindowChoicesResult,
} from '../shared/protocol';

/**
 * The parts of the window a person can change (section.key of .skewguard.yaml), in the picker's order: each section's
 * (families/<id>/config.ts: the StarlingX release, the Kubernetes window, then each family's), then the parts each
 * lists last (the platform's upgrade start); each with its choices (the StarlingX releases) or the pattern of a typed
 * value. Read when asked: a section may compute its parts from the data.
 */
export const windowPartSpecs = (): PartSpec[] => [
  ...CONFIG_SECTIONS.flatMap((c) => c.parts),
  ...CONFIG_SECTIONS.flatMap((c) => c.partsLast ?? []),
];

const toPath = (uri: string) => { try { return fileURLToPath(uri); } catch { return uri; } };

/** The .skewguard.yaml text with one value set (the key added, or its section, when missing). */
export function setWindowValue(text: string, part: WindowPart, value: string): string {
  const [section, key] = part.split('.');
  const file = parseYamlFull(text);
  const doc = file.docs.find((d) => !d.empty);
  if (!doc || doc.value === null || typeof doc.value !== 'object') {
    const sep = text === '' || text.endsWith('\n') ? '' : '\n';
    return `${text}${sep}${section}:\n  ${key}: ${JSON.stringify(value)}\n`;
  }
  const ed = new YamlEditor(text, doc);
  const quoted = JSON.stringify(value);
  const done = ed.setScalar([section, key], value) || ed.insertKey([section], key, value) || ed.insertKey([], section, { [key]: value });
  if (!done) return `${text}${text.endsWith('\n') ? '' : '\n'}${section}:\n  ${key}: ${quoted}\n`;
  return ed.apply();
}

export function registerWindowCommands(connection: Connection, ws: () => WorkspaceState): void {
  connection.onRequest(WindowChoicesRequest, (): WindowChoicesResult => ({
    // What the sections offer beyond their parts (their choices(): the StarlingX releases as data).
    ...Object.assign({}, ...CONFIG_SECTIONS.map((c) => c.choices?.() ?? {})),
    parts: windowPartSpecs(),
  }));
  connection.onRequest(WindowEditRequest, (p: WindowEditParams) => windowEdit(ws(), p));
}

export function windowEdit(w: WorkspaceState, p: WindowEditParams): WindowEditResult {
  if (!p || typeof p.part !== 'string' || !windowPartSpecs().some((x) => x.part === p.part) || typeof p.value !== 'string') return { problem: 'no such part of the window' };
  const file = p.uri ? toPath(p.uri) : path.join(w.roots[0] ?? process.cwd(), '__workspace__');
  // configFor: --config when given, else the nearest .skewguard.yaml.
  const loaded = w.configFor(file);
  const target = loaded?.path ?? path.join(w.rootFor(file) ?? w.roots[0] ?? path.dirname(file), CONFIG_FILENAMES[0]);
  const exists = !!loaded || fs.existsSync(target);
  // Its open buffer when there is one (unsaved changes included): the client replaces the buffer's text and saves it,
  // so nothing typed there is lost; the saved file (loaded) is what the windows come from until then.
  const before = w.openTexts.get(target) ?? loaded?.text ?? '';
  const text = setWindowValue(before, p.part, p.value.trim());
  // The validator's verdict on the new text: only problems the change brings are refused.
  const was = new Set(parseConfig(target, before, ruleIds).problems.map((x) => x.message));
  const now = parseConfig(target, text, ruleIds).problems.filter((x) => !was.has(x.message));
  if (now.length) return { problem: now.map((x) => x.message).join('; ') };
  return { path: target, exists, text };
}
