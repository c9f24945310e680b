// Helm's Go-template subset: a template-aware reader (parse, mask, actions) and a bounded, side-effect-free
// evaluator (render) with exact positions. See parse.ts and eval.ts.
export { parseTemplate, maskActions, actionsOf, MAX_NESTING } from './parse';
export type { TemplateFile, TemplateProblem, ParsedTemplate, ActionInfo, ActionKind, Define, Node as TemplateNode, Pipe as TemplatePipe, Expr as TemplateExpr, Arm as TemplateArm } from './parse';
export { renderTemplate, DEFAULT_BUDGET, UNKNOWN_PLACEHOLDER } from './eval';
export type { Capabilities, RenderScope, Segment, Unknown, Branch, Rendered, Budget } from './eval';
export { semverCompare, parseVersion, parseConstraints, checkConstraints } from './semver';
