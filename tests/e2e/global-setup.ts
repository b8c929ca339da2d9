// Playwright globalSetup: the extension is built once, before any worker starts (each of the two
// workers would otherwise start the same build at the same time; the specs then find this one by its
// stamp, tests/e2e/helpers/extension-build.ts).
import { ensureExtensionBuilt } from './helpers/extension-build.js';
import { ensureWebBuilt } from './helpers/web-build.js';

export default async function globalSetup(): Promise<void> {
  await ensureExtensionBuilt();
  // The web app's specs serve this build (tests/e2e/web-app.spec.ts).
  await ensureWebBuilt();
}
