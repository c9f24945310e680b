import type { StarlingxContext, KubeVersionValue } from '../index';
import type { FindingFix } from '../../../rules/types';

/** A fix that replaces the kubernetes_version value, keeping the user's quoting. */
export function setKubeVersion(kv: KubeVersionValue, version: string, title: string, preferred = false): FindingFix {
  const q = kv.quote;
  return { title, preferred, edits: [{ range: kv.range, newText: `${q}${version}${q}` }], destructive: false };
}

export function defaultFix(ctx: StarlingxContext, kv: KubeVersionValue, preferred = false) {
  return setKubeVersion(kv, ctx.release.default, `Use StarlingX ${ctx.release.release}'s default Kubernetes ${ctx.release.default}`, preferred);
}
