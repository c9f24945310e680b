// One operator version a workspace file pins (issue #31 item 3): the shape the ops-lifecycle branch's operatorWindow reads.
export interface OperatorPin { operator: string; version: string; file: string; line: number; detail: string }
