// A stamp of what a test build is made from: every file's path, size and modification time under the
// given sources (sorted, so the same tree gives the same stamp). A build is redone only when it changes.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function sourceStamp(root: string, sources: string[], skip: (file: string) => boolean = () => false): string {
  const hash = crypto.createHash('sha256');
  const walk = (p: string) => {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p).sort()) walk(path.join(p, name));
    } else if (!skip(p)) {
      hash.update(`${path.relative(root, p)}:${st.size}:${st.mtimeMs}\n`);
    }
  };
  for (const s of sources) walk(path.join(root, s));
  return hash.digest('hex');
}
