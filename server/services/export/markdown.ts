import type { ExportEvent } from './walk.js';

/**
 * Text safe in Markdown prose: inline markup characters are backslash-escaped, and so is what
 * would start a block (heading, quote, list, numbered list) at the beginning of a line.
 */
function escapeMarkdown(text: string): string {
  return text
    .replace(/([\\`*_[\]<>|~])/g, '\\$1')
    .replace(/^(\s*)([#>+=-])/gm, '$1\\$2')
    .replace(/^(\s*\d+)\./gm, '$1\\.');
}

/** A link destination in `<...>` form, which allows spaces and parentheses. */
const destination = (url: string): string => `<${url.replace(/[<>\s]/g, encodeURIComponent)}>`;

/** Lines of `text` each prefixed with `prefix` (block quotes keep every line inside). */
const prefixed = (text: string, prefix: string): string =>
  text.split(/\r?\n/).map((l) => `${prefix}${l}`.trimEnd()).join('\n');

/**
 * Markdown: a heading per collection (nested collections one level deeper, down to ######), a
 * section per bookmark (title linked, domain, date, tags, favourite, excerpt, note), its
 * highlights as block quotes with their notes under them.
 */
export async function* markdown(events: AsyncIterable<ExportEvent>, title: string): AsyncGenerator<string> {
  yield `# ${escapeMarkdown(title)}\n\n`;
  let looseHeading = false;
  for await (const e of events) {
    if (e.kind === 'open') {
      yield `${'#'.repeat(Math.min(e.depth + 2, 6))} ${escapeMarkdown(e.path.join(' / '))}\n\n`;
      continue;
    }
    if (e.kind === 'close') continue;
    if (e.path.length === 0 && !looseHeading) {
      looseHeading = true;
      yield '## Not in a collection\n\n';
    }
    let out = '';
    const level = '#'.repeat(Math.min(e.depth + 2, 6));
    for (const b of e.items) {
      out += `${level} [${escapeMarkdown(b.title || b.link)}](${destination(b.link)})\n\n`;
      const facts = [escapeMarkdown(b.domain), b.created.slice(0, 10)];
      if (b.important) facts.push('★ favourite');
      if (b.tags.length) facts.push(b.tags.map((t) => `\\#${escapeMarkdown(t)}`).join(' '));
      out += `${facts.join(' · ')}\n\n`;
      if (b.excerpt) out += `${escapeMarkdown(b.excerpt)}\n\n`;
      if (b.note) out += `**Note:** ${prefixed(escapeMarkdown(b.note), '').replace(/\n/g, '  \n')}\n\n`;
      for (const h of b.highlights) {
        out += `${prefixed(escapeMarkdown(h.text), '> ')}\n\n`;
        if (h.note) out += `${prefixed(escapeMarkdown(h.note), '')}\n\n`;
      }
    }
    yield out;
  }
}
