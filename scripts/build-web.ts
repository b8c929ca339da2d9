// Builds the web app (vite.web.config.ts) into dist/web, where the server serves it (ServerConfig.webAppDir).
// Used by `npm start` and the web app's end-to-end tests; `npm run build:web` does the same from the CLI.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const VITE = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');

/**
 * Builds the web app; the directory it was written to. In a process of its own with NODE_ENV set to
 * production: Vite and the Preact preset take the mode from NODE_ENV when it is set, and a test runner's
 * `test` would otherwise build a development bundle (Preact's debug checks included, 30 KB more).
 */
export function buildWeb(opts: { outDir?: string; quiet?: boolean } = {}): Promise<string> {
  const outDir = path.resolve(ROOT, opts.outDir ?? 'dist/web');
  const args = [VITE, 'build', '-c', path.join(ROOT, 'vite.web.config.ts'), '--outDir', outDir, '--logLevel', opts.quiet ? 'warn' : 'info'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(outDir) : reject(new Error(`Building the web app failed (vite exited with ${code}); its output is above.`))));
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildWeb().then(
    (dir) => process.stdout.write(`Web app: ${dir}\n`),
    (err) => {
      process.stderr.write(`${(err as Error).stack ?? err}\n`);
      process.exit(1);
    },
  );
}
