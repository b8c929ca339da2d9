// vitest globalSetup: bundles the server's command line for this state of the sources before the
// test files start (tests/helpers/cli-bundle.ts), so the files that run it as processes start each
// one with plain `node` instead of tsx, and no two of them build it at once.
import { prepareCliBundle } from '../helpers/cli-bundle.js';

export default async function setup(): Promise<void> {
  await prepareCliBundle();
}
