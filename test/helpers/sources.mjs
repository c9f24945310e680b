// The TypeScript sources below a folder, for the tests that scan the product code (family names, array spreads).
import fs from 'node:fs';
import path from 'node:path';

export function tsSources(dir) {
  const out = [];
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop();
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (/\.ts$/.test(e.name)) out.push(p);
    }
  }
  return out.sort();
}
