// Draws the web app's icons (web/public/icons/, named in web/public/manifest.webmanifest) from one SVG
// of Tidemark's mark, the extension's icon (public/icon/): a bookmark cut by a wave on a teal tile.
// Rendered by headless Chromium so the PNGs match the SVG exactly. Run after changing the mark:
//   npx tsx scripts/make-web-icons.ts
// and commit the PNGs (the build copies them; nothing draws them at build or run time).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'web', 'public', 'icons');
const TEAL = '#1f6f8b';

/** The mark on a 128-unit grid: the ribbon, and the wave cut out of it in the tile's colour. */
const MARK = `
  <path d="M40 22h48v84L64 87 40 106z" fill="#fff"/>
  <path d="M33 66c9-9 17-11 26-4s17 9 27 0" fill="none" stroke="${TEAL}" stroke-width="9" stroke-linecap="round"/>`;

/** `maskable`: the tile fills the square and the mark keeps inside the central safe circle (80 %), as launchers crop it. */
export function iconSvg(maskable: boolean): string {
  const tile = maskable ? `<rect width="128" height="128" fill="${TEAL}"/>` : `<rect width="128" height="128" rx="26" fill="${TEAL}"/>`;
  const mark = maskable ? `<g transform="translate(64 64) scale(.72) translate(-64 -64)">${MARK}</g>` : MARK;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128">${tile}${mark}</svg>`;
}

async function main(): Promise<void> {
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'icon.svg'), `${iconSvg(false)}\n`);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    for (const size of [192, 512]) {
      for (const maskable of [false, true]) {
        const page = await browser.newPage({ viewport: { width: size, height: size } });
        await page.setContent(`<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${iconSvg(maskable)}`);
        const file = path.join(OUT, `${maskable ? 'maskable' : 'icon'}-${size}.png`);
        await page.screenshot({ path: file, omitBackground: true });
        await page.close();
        process.stdout.write(`${path.relative(ROOT, file)}\n`);
      }
    }
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
