// Hidden classes kept alive. V8's optimised code refers weakly to the hidden classes ("maps") of the objects it was
// optimised for, and a full garbage collection that finds no live object of such a map throws away ("deoptimises")
// every function whose code refers to it. The parser's objects live only while a file is parsed and analysed, so the
// full collection the editor's server makes when a big file is closed (server/memory.ts) found none of them, and the
// next file was parsed and analysed by unoptimised code until the functions were optimised again: a file opened
// after another had been closed took a third longer than the same file opened first (#29). One object of each such
// class, kept here for good, keeps its map alive.
const kept: object[] = [];

/** Keeps `o` (and so its hidden class) alive for good; returns it. */
export function keepShape<T extends object>(o: T): T {
  kept.push(o);
  return o;
}
