// An operator version read from the workspace (a Chart.yaml dependency, a Flux HelmRelease, an Argo CD Application, a
// kustomize remote URL, an image tag: issue #31 item 3). The operator component windows (components/operators.ts)
// take them when the user gives no version: several pins of one operator form its window, from the oldest to the newest.
export interface OperatorPin { operator: string; version: string; file: string; line: number; detail: string }
