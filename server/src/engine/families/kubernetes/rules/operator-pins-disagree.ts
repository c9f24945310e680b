// k8s/operator-pins-disagree (issue #31 item 3): two places of the workspace pin one operator at versions that do not
// agree (a chart dependency says cert-manager 1.14, a kustomization's images: say 1.13). Said at each pin of the
// analysed file, naming the others. Runs on manifests (HelmRelease, Application, workloads), kustomizations and a
// chart's Chart.yaml: each family hands it the file's text, path and neighbours. The other files' pins are read by the
// server from the saved files (NeighbourFacts.operatorPins); they are asked for only when the file pins an operator.
import type { Rule } from '../../../rules/types';
import type { NeighbourFacts } from '../index';
import { scanFilePins, pinsOf, disagreeingPins, type OperatorPin } from '../../../components/operator-pins';
import { lineIndexOf } from '../../../text';

/** What the rule reads: the analysed file's text (as analysed: a part of a big file is its own text) and path. */
export interface PinRuleInput { text: string; path: string; neighbours: NeighbourFacts }

const where = (p: OperatorPin) => `${p.file}:${p.line + 1}`;

export const rule: Rule<PinRuleInput> = {
  id: 'k8s/operator-pins-disagree',
  family: 'kubernetes',
  defaultSeverity: 'info',
  title: 'Operator pinned at versions that disagree',
  what: 'Reports a place that pins an operator version (a Chart.yaml dependency, a Flux HelmRelease, an Argo CD Application, a kustomize remote URL or `images:` entry, a workload\'s image tag) when another place of the workspace pins the same operator at a version that does not agree with it, naming the others. '
    + 'A chart version is read through the chart\'s own chart → operator version map (data/operators/charts.json); a version range agrees with every minor it admits; an image tag `v1.14` agrees with any 1.14 patch.',
  why: 'skewguard checks an operator\'s custom resources at the versions the workspace pins, and several pins form its window: an upgrade in progress, checked at both ends. '
    + 'Pins that disagree without an upgrade in progress usually mean a chart bump that missed an image override or a second install: the cluster may run another version than the one the custom resources were written for. '
    + 'It is information (severity info) because the window covers every pinned version; raise it to warning where one version per operator is the rule.',
  bad: {
    filename: 'kustomization.yaml',
    text: 'resources:\n  - https://github.com/cert-manager/cert-manager/releases/download/v1.14.2/cert-manager.yaml\nimages:\n  - name: quay.io/jetstack/cert-manager-controller\n    newTag: v1.13.1\n',
  },
  good: {
    filename: 'kustomization.yaml',
    text: 'resources:\n  - https://github.com/cert-manager/cert-manager/releases/download/v1.14.2/cert-manager.yaml\nimages:\n  - name: quay.io/jetstack/cert-manager-controller\n    newTag: v1.14.2\n',
  },
  fix: 'none',
  sources: [
    'data/operators/charts.json (scripts/import-operator-charts.mjs: the operators\' chart → app version maps read from each chart\'s Chart.yaml at every chart tag, image repositories and release URLs)',
    'Helm dependency version ranges: Masterminds/semver v3 constraints (helm/helm pkg/downloader, the Helm family\'s template/semver.ts)',
  ],
  check({ text, path: file, neighbours }, report) {
    // This file's own pins, from its text as analysed: a file that pins no operator never asks for the workspace's.
    const first = scanFilePins(file, text);
    if (!first.pins.length && !first.pending.length) return;
    const ws = neighbours.operatorPins?.();
    const self = ws?.self ?? file.split(/[\\/]/).pop() ?? file;
    const baseOf = (f: string) => (f.split(/[\\/]/).pop() ?? f).toLowerCase();
    // The same text under the workspace's name for the file: the cheap look (by base name and text) is not made again.
    const own = scanFilePins(self, text, baseOf(self) === baseOf(file));
    const all = pinsOf([...(ws?.scans ?? []).filter((s) => s.file !== self), own]).pins;
    const lines = lineIndexOf(text.replace(/^\uFEFF/, ''));
    const bom = text.startsWith('\uFEFF') ? 1 : 0;
    for (const { pin, others } of disagreeingPins(all)) {
      if (pin.file !== self) continue;
      const mine = all.filter((p) => p.operator === pin.operator && p.file === pin.file && p.line === pin.line);
      const start = lines.lineStart(pin.line);
      const lineText = lines.lineText(pin.line);
      const indent = /^[\s-]*/.exec(lineText)![0].length;
      const versions = [...new Set(mine.map((p) => p.version))].join(' .. ');
      const otherText = others.map((o) => `${o.operator} ${o.version} at ${where(o)}`).join(', ');
      const all2 = [...new Set([...mine, ...others].map((p) => p.version))];
      report({
        message: `${pin.operator} ${versions} pinned here disagrees with ${otherText}: several pins of one operator form its window (${all2.join(', ')}), checked as an upgrade in progress; if no upgrade is under way, one of them is stale`,
        range: { start: start + bom + indent, end: start + bom + lineText.length },
        data: { operator: pin.operator, versions: mine.map((p) => p.version), detail: mine[0].detail, others: others.map((o) => ({ version: o.version, file: o.file, line: o.line, detail: o.detail })), ...(ws?.notRead.length ? { notRead: ws.notRead } : {}) },
      });
    }
  },
};
