// The chart Helm renders for a file (the desktop server's Helm renderer and the web build's stub both ask it): the
// nearest folder above with a Chart.yaml, and for a vendored subchart its outermost parent chart.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A chart's file: under templates/, Chart.yaml, a values file (values*.yaml, a scenario's ci/*-values.yaml), values.schema.json. */
export const looksLikeChartFile = (file: string) => /(^|[\\/])templates[\\/]/.test(file) || /(^|[\\/])(Chart\.ya?ml|values[^\\/]*\.ya?ml|values\.schema\.json|ci[\\/][^\\/]+-values\.yaml)$/i.test(file);

/**
 * The chart a file belongs to: the nearest folder above it with a Chart.yaml, and for a vendored subchart
 * (<parent>/charts/<sub>/…) its outermost parent chart, which is what Helm renders. Undefined for other files.
 */
export function chartRootOf(file: string, exists: (p: string) => boolean = fs.existsSync): string | undefined {
  if (!looksLikeChartFile(file)) return undefined;
  let dir = path.dirname(file);
  let found: string | undefined;
  for (let i = 0; i < 24; i++) {
    if (exists(path.join(dir, 'Chart.yaml'))) { found = dir; break; }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  while (found && path.basename(path.dirname(found)) === 'charts' && exists(path.join(path.dirname(path.dirname(found)), 'Chart.yaml'))) {
    found = path.dirname(path.dirname(found));
  }
  return found;
}
