// What is not computed where the engine runs (in the web extension: a hash, which needs node:crypto): thrown by what
// stands in for it (server/src/web/shims/misc.ts), and said by the reader that asked for it as not evaluated (the Helm
// family's template evaluator reports the expression so, as any other it does not evaluate).
export class NotEvaluated extends Error {}
