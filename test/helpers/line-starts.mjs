// Line starts by a walk over every character: a line breaks at \n, \r\n or a lone \r, as LSP counts them. The
// reference the tests hold the engine's positions (and LineIndex itself) to.
export function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) { if (text.charCodeAt(i + 1) === 10) i++; starts.push(i + 1); }
  }
  return starts;
}
