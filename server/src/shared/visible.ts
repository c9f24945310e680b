// LSP extension of issue #18 item 5 (big files whole): the client says where a document is looked at, so that a file
// with more findings than the editor shows gets the ones on screen and around the cursor first (server/publish.ts).

/** Notification, client → server: the visible ranges of a document's editor and its cursor (zero-based, UTF-16). */
export const VisibleRangesNotification = 'skewguard/visibleRanges';
export interface VisibleRangesParams {
  uri: string;
  ranges: Array<{ start: { line: number; character: number }; end: { line: number; character: number } }>;
  cursor?: { line: number; character: number };
}
