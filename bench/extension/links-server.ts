// Child process for the index benchmark: the real server with one user holding N saved links, so
// the benchmark's own process measures only the extension's side. Prints one JSON line
// {origin, token}, then serves until stdin closes.
import { normalizeUrl } from '../../lib/api/url.js';
import { startServer } from '../../tests/helpers/server.js';
// The app's decorations (app.repos): the helper's declaration file does not carry them.
import type {} from '../../server/fastify-types.js';

const links = Number(process.argv[2] ?? 100_000);
const s = await startServer();
const user = await s.createUser();
const domains = Array.from({ length: 500 }, (_, i) => `site${i}.example`);
// Through the repository, 5000 rows a transaction: the HTTP API would take minutes for 100k.
for (let start = 0; start < links; start += 5000) {
  const batch = [];
  for (let i = start; i < Math.min(links, start + 5000); i++) {
    const link = `https://${domains[i % domains.length]}/articles/${i}/some-slug-${i % 977}?ref=feed`;
    batch.push({
      ownerId: user.id, creatorId: user.id, collectionId: -1, link, linkKey: normalizeUrl(link)!, domain: domains[i % domains.length],
      title: `Article ${i}`, excerpt: '', note: '', type: 'link' as const, cover: '', media: [], tags: [], important: false, highlights: [],
    });
  }
  await s.app.repos.bookmarks.create(batch);
}
process.stdout.write(`${JSON.stringify({ origin: s.origin, token: user.token })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void s.close().then(() => process.exit(0)));
