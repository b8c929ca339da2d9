import zlib from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import { ensureExtensionBuilt } from '../../tests/e2e/helpers/extension-build.js';
const dir = await ensureExtensionBuilt();
for (const f of ['highlighter.js', 'highlighter-scope-marks.js', 'highlighter-editor.js']) console.log(f, zlib.gzipSync(fs.readFileSync(path.join(dir, f)), { level: 9 }).length);
