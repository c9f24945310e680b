// How a window (or any run of steps) is written in messages, hovers, the status item and reports: its first and last
// step, "1.25..1.28", or its one step. One function for the engine, the server and the rules.

/** "first..last" (`sep` between them), or the one step. */
export function windowText(steps: readonly string[], sep = '..'): string {
  return steps.length > 1 ? `${steps[0]}${sep}${steps[steps.length - 1]}` : steps[0];
}
