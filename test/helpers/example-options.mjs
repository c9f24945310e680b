// A rule example's options line ("StarlingX 6.0, Kubernetes 1.18..1.21, Kata 3.2..3.32, go, data older than six
// months") as CLI overrides, for the docs' examples and the per-rule fixtures alike.
export function exampleOverrides(options) {
  const cli = {};
  let staleData = false;
  let neighbours;
  for (const part of (options ?? '').split(/[,;]/).map((s) => s.trim()).filter(Boolean)) {
    let m;
    if ((m = /^StarlingX\s+(\S+)\.\.(\S+)$/i.exec(part))) { cli.starlingxUpgradeFrom = m[1]; cli.starlingxRelease = m[2]; }
    else if ((m = /^StarlingX\s+(\S+)$/i.exec(part))) cli.starlingxRelease = m[1];
    else if ((m = /^Kubernetes\s+(\S+)$/i.exec(part))) cli.kubernetesWindow = m[1];
    // The server's walk of a workspace that holds no Kata configuration file (engine/families/kata-config/data/chain.ts KataChainFacts).
    else if (/^Kata workspace$/i.test(part)) neighbours = { ...neighbours, kataChain: { root: '/x', runtimes: [], kataConfigs: [], kataDeploy: [] } };
    else if ((m = /^Kata(?: Containers)?\s+(\S+(?:\s*\([a-z-]+\))?(?:\s*\.\.\s*\S+(?:\s*\([a-z-]+\))?)?)$/i.exec(part))) cli.kataWindow = m[1];
    else if ((m = /^(go|runtime-rs)$/.exec(part))) cli.kataFlavour = m[1];
    else if ((m = /^containerd runtimes\s+(\S+)$/i.exec(part))) neighbours = { containerdRuntimes: { files: ['containerd/config.toml'], names: m[1].split('+') } };
    else if ((m = /^containerd\s+(\S+)$/i.exec(part))) cli.containerdWindow = m[1];
    // Another file of the workspace pins an operator (server/operator-pins.ts's scans, NeighbourFacts.operatorPins).
    else if ((m = /^operator pin (\S+) (\S+) at (\S+):(\d+)$/i.exec(part))) {
      const pin = { operator: m[1], version: m[2], file: m[3], line: Number(m[4]) - 1, detail: `${m[1]} ${m[2]} from ${m[3]}` };
      const scans = [...(neighbours?.pinScans ?? []), { file: m[3], pins: [pin], sources: [], pending: [], unresolved: [] }];
      neighbours = { ...neighbours, pinScans: scans, operatorPins: () => ({ scans, notRead: [] }) };
    }
    else if (/^data older than six months$/i.test(part)) staleData = true;
    // An operator's (or another component's) version or window: "component external-secrets=0.16..0.17" (--component-versions).
    else if ((m = /^component\s+([a-z0-9-]+)=(\S+)$/i.exec(part))) (cli.componentVersions ??= {})[m[1]] = m[2];
    else throw new Error(`unknown example option "${part}"; teach test/helpers/example-options.mjs`);
  }
  return { cli, staleData, neighbours };
}
