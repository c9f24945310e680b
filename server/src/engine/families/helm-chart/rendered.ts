// What a real Helm rendered for a chart at one step of the window (./server/helm-render.ts makes it; the
// engine only reads it). Only when the user asked for it (lsp-lint --helm-render, helm.render in .skewguard.yaml),
// in a trusted workspace, with a Helm binary found: otherwise AnalyzeInput.helmRenders is undefined.

// The family's part of an analysis input (module augmentation: engine/analyze.ts names no family).
declare module '../../analyze' {
  interface AnalyzeInput {
    /** What a real Helm rendered for the file's chart at each step (only when asked for and trusted; the server makes it). */
    helmRenders?: ChartRender[];
  }
}

export interface ChartEmission {
  /** The template the document came from, relative to the chart root ("templates/x.yaml", "charts/sub/templates/y.yaml"). */
  template: string;
  /**
   * 0-based position among the documents the template rendered, in the template's own order (empty documents not
   * counted). Helm prints documents sorted by kind (stably); the order is restored through the template's literal
   * `kind:` lines. -1 when it could not be (documents of several kinds that the template's text does not tell apart).
   */
  index: number;
  apiVersion?: string;
  kind?: string;
  /** 0-based line of the document's `apiVersion:` key in the template's own text, when the document could be matched. */
  line?: number;
}

export interface ChartRender {
  /** The chart's folder (the one with Chart.yaml), absolute. */
  chartRoot: string;
  /** The Kubernetes minor rendered at ("1.25"). */
  step: string;
  /** false: not rendered at this step (error says why); its emissions are then empty and mean nothing. */
  ok: boolean;
  error?: string;
  emissions: ChartEmission[];
  /** `helm version` of the binary that rendered it, e.g. "v3.17.3". */
  helmVersion: string;
}
