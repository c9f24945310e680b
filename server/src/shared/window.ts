// The window at a glance: what the server's code lenses hand to the client's command, and the Upgrade Window view's
// request (server/src/server/code-lens.ts, client/src/window-view.ts).
import type { Range, Severity } from '../engine/types';

/** The command a step's code lens runs: a quick pick of that step's findings. */
export const SHOW_STEP_FINDINGS = 'skewguard.showStepFindings';

export interface StepFinding { ruleId: string; severity: Severity; message: string; range: Range }
export interface StepFindingsArgs { uri: string; step: string; findings: StepFinding[] }

/** The verdicts of files: open ones from their analysis, others from the text given. */
export const WindowStatusRequest = 'skewguard/windowStatus';
/**
 * The files of the Upgrade Window view: an open one by its uri, another with its text as the client read it, or
 * without text and with why the client did not read it (`unread`: "1.2 MB, over the view's 512 KiB limit", an error).
 */
export interface WindowStatusParams { files: Array<{ uri: string; text?: string; unread?: string }> }
export interface FileWindowStatus {
  uri: string;
  /** Set when the file was not checked: why. skewguardFile: false when it is not a file skewguard checks at all. */
  notChecked?: string;
  skewguardFile?: boolean;
  axis?: string;
  /** The verdicts in one line ("1.21 ✓ · 1.22 ✗"). */
  summary: string;
  steps: Array<{ step: string; verdict: 'pass' | 'warn' | 'fail'; findings: StepFinding[] }>;
  findings: StepFinding[];
}
export interface WindowStatusResult { files: FileWindowStatus[] }
