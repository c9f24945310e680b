// The Kata family's workspace fact: kata-deploy's image tags (its DaemonSet or Helm values, found by the server's walk
// of the node's chain, server/kata-chain.ts) under the same .skewguard.yaml as a file: the Kata window when none is
// configured (families/kata-config/config.ts reads WorkspaceFacts.kataDeploy). The server produces it generically from
// the registry (FamilyModule.workspaceFactProducers), when a Kata file's window first needs it.
import type { WorkspaceFactProducer } from '../types';

export const kataDeployFact: WorkspaceFactProducer<'kataDeploy'> = {
  key: 'kataDeploy',
  produce({ neighbours, inScope, relative }) {
    const k = neighbours.kataChain!.kataDeploy.filter((x) => inScope(x.file));
    if (!k.length) return undefined;
    const files = [...new Set(k.map((x) => relative(x.file)))];
    return { path: files.join(', '), tags: k.map((x) => x.tag) };
  },
};
