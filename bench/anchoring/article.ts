/**
 * Deterministic long-article generator for the anchoring benchmark, with a model of the text
 * (blocks -> sentences -> inline segments) so that highlights and edits can be tracked exactly.
 *
 * Every sentence is rendered inside `<span data-s="ID">`, so the page can find where a sentence starts
 * in its normalised text; character offsets inside a sentence are offsets in its plain text.
 */

export interface Segment {
  text: string;
  tag?: 'em' | 'strong' | 'a' | 'code';
}
export interface Sentence {
  id: string;
  segs: Segment[];
}
export type BlockKind = 'h2' | 'h3' | 'p' | 'ul' | 'ol' | 'blockquote';
export interface Block {
  id: string;
  kind: BlockKind;
  /** Paragraph-like blocks have one item; lists have one item per <li>. */
  items: Sentence[][];
}

/** A highlight in model terms: from (sentence, char) to (sentence, char), end exclusive. */
export interface SpanSpec {
  startS: string;
  startC: number;
  endS: string;
  endC: number;
}
export type HighlightKind = 'short' | 'medium' | 'long' | 'cross-paragraph';
export interface HighlightSpec extends SpanSpec {
  kind: HighlightKind;
}

export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    // xorshift32
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

const NOUNS = [
  'harbour', 'tide', 'quay', 'lighthouse', 'channel', 'estuary', 'breakwater', 'pilot boat', 'ferry', 'trawler',
  'mooring', 'current', 'sandbank', 'lock gate', 'slipway', 'buoy', 'crew', 'storm surge', 'sea wall', 'coastline',
  'dredger', 'anchorage', 'jetty', 'salt marsh', 'river mouth', 'fishing fleet', 'weather station', 'chart', 'survey',
  'tide gauge', 'council', 'museum', 'boatyard', 'customs house', 'fish market', 'spring tide', 'harbour wall',
  'signal mast', 'net loft', 'rope walk', 'ice house', 'coal wharf', 'lifeboat', 'foghorn', 'tide mill', 'ledger',
  'pier', 'marina', 'shipyard', 'warehouse', 'beacon', 'mudflat', 'creek', 'reef', 'cargo', 'timetable', 'logbook',
];
const ADJS = [
  'northern', 'narrow', 'shallow', 'busy', 'quiet', 'old', 'new', 'tidal', 'exposed', 'sheltered', 'muddy', 'rocky',
  'historic', 'modern', 'seasonal', 'unusual', 'reliable', 'careful', 'long', 'brief', 'early', 'late', 'crumbling',
  'freshly painted', 'half-flooded', 'disputed', 'forgotten', 'famous', 'leaking', 'rebuilt', 'western', 'silted',
];
const VERBS = [
  'measured', 'recorded', 'crossed', 'flooded', 'repaired', 'surveyed', 'described', 'protected', 'watched', 'mapped',
  'dredged', 'rebuilt', 'studied', 'reported', 'predicted', 'closed', 'opened', 'inspected', 'painted', 'sold',
  'photographed', 'abandoned', 'extended', 'widened', 'questioned', 'catalogued', 'insured', 'restored', 'drained',
];
const PEOPLE = [
  'the harbour master', 'the lock keeper', 'a retired pilot', 'the council engineer', 'an old skipper',
  'the museum curator', 'a young surveyor', 'the ferry captain', 'a local historian', 'the coastguard',
  'Maren Holt', 'Captain Ellis', 'Ada Penrose', 'the Tregarth brothers', 'a visiting hydrographer', 'Jonah Quill',
  'the parish clerk', 'two apprentices', 'the insurance agent', 'Mrs Carne', 'the night watchman', 'Dr Ivo Laity',
];
const PLACES = [
  'Kettle Point', 'the north basin', 'Gull Rock', 'the inner harbour', 'Mill Creek', 'the east pier', 'Porthallow',
  'the old town', 'St Anne\'s slip', 'the outer roads', 'Black Ledge', 'the fish quay', 'Wreckers\' Cove', 'the bar',
];
const TIMES = [
  'at high water', 'at low water', 'during the spring tides', 'in the winter of the great storm', 'every morning',
  'after the equinox', 'before dawn', 'twice a day', 'over the following decade', 'on the neap tides', 'in 1893',
  'in the spring of 1907', 'by midsummer', 'within a fortnight', 'on the night of the gale', 'soon after the war',
  'for most of the season', 'long before the railway came',
];
const CLAUSES = [
  'according to the tide tables', 'as the records show', 'which surprised nobody in town', 'despite the weather',
  'for the first time in years', 'while the fleet waited offshore', 'as the water kept rising',
  'to the relief of the fishermen', 'without any public notice', 'though few people noticed at the time',
  'and the newspaper printed a long letter about it', 'because the insurers insisted', 'at a cost nobody would admit',
  'much to the annoyance of the ferry company', 'as had been promised for years',
];
const OPENERS = ['However,', 'In the end,', 'By then,', 'Curiously,', 'Even so,', 'Later,', 'At first,', 'Meanwhile,', 'For a while,'];

function pick<T>(r: () => number, a: readonly T[]): T {
  return a[Math.floor(r() * a.length)];
}
function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function nounPhrase(r: () => number): string {
  const adj = r() < 0.5 ? `${pick(r, ADJS)} ` : '';
  const of = r() < 0.3 ? ` at ${pick(r, PLACES)}` : '';
  return `the ${adj}${pick(r, NOUNS)}${of}`;
}

function number(r: () => number): string {
  const k = Math.floor(r() * 4);
  if (k === 0) return `${Math.floor(r() * 900 + 20)} tonnes`;
  if (k === 1) return `${(r() * 9 + 0.5).toFixed(1)} metres`;
  if (k === 2) return `${Math.floor(r() * 60 + 2)} boats`;
  return `${Math.floor(r() * 300 + 10)} pounds`;
}

/** One clause of prose, built from a small grammar so that long passages rarely repeat verbatim. */
function clause(r: () => number): string {
  const k = Math.floor(r() * 9);
  const who = pick(r, PEOPLE);
  switch (k) {
    case 0: return `${who} ${pick(r, VERBS)} ${nounPhrase(r)} ${pick(r, TIMES)}`;
    case 1: return `${nounPhrase(r)} was ${pick(r, VERBS)} ${pick(r, TIMES)}, ${pick(r, CLAUSES)}`;
    case 2: return `${nounPhrase(r)} near ${pick(r, PLACES)} had to be ${pick(r, VERBS)} after ${number(r)} of ${pick(r, NOUNS)} were lost`;
    case 3: return `${who} kept a ${pick(r, ADJS)} ${pick(r, NOUNS)} of every tide ${pick(r, TIMES)}`;
    case 4: return `nobody had ${pick(r, VERBS)} ${nounPhrase(r)} since ${who} left for ${pick(r, PLACES)}`;
    case 5: return `it took ${Math.floor(r() * 40 + 2)} days and ${number(r)} to ${pick(r, VERBS).replace(/ed$/, '')} ${nounPhrase(r)}`;
    case 6: return `${nounPhrase(r)} and ${nounPhrase(r)} were ${pick(r, VERBS)} together, ${pick(r, CLAUSES)}`;
    case 7: return `${who} still talks about ${nounPhrase(r)} and the ${pick(r, ADJS)} ${pick(r, NOUNS)} ${pick(r, TIMES)}`;
    default: return `the water at ${pick(r, PLACES)} rose ${number(r).replace(/ (tonnes|boats|pounds)$/, ' metres')} ${pick(r, TIMES)}`;
  }
}

/** One sentence as inline segments (sometimes with em/strong/a/code markup). */
function sentenceSegments(r: () => number): Segment[] {
  let body = clause(r);
  const joint = r();
  if (joint < 0.25) body += `, and ${clause(r)}`;
  else if (joint < 0.35) body += `; ${clause(r)}`;
  else if (joint < 0.45) body += ` while ${clause(r)}`;
  const opener = r() < 0.2 ? `${pick(r, OPENERS)} ` : '';
  const end = r() < 0.06 ? '?' : '.';
  let text = cap(opener + body) + end;
  if (r() < 0.06) text = `"${cap(clause(r))}," said ${pick(r, PEOPLE)}.`;
  // Inline markup on a word or phrase now and then.
  const mark = r();
  if (mark < 0.3) {
    const words = [...text.matchAll(/\b[A-Za-z][A-Za-z' -]{3,24}[a-z]\b/g)];
    if (words.length > 0) {
      const w = words[Math.floor(r() * words.length)];
      const tag: Segment['tag'] = mark < 0.1 ? 'em' : mark < 0.18 ? 'strong' : mark < 0.26 ? 'a' : 'code';
      const a = w.index!;
      const b = a + w[0].length;
      return [{ text: text.slice(0, a) }, { text: text.slice(a, b), tag }, { text: text.slice(b) }].filter((g) => g.text.length > 0);
    }
  }
  return [{ text }];
}

export function freshSentence(seed: number): Segment[] {
  return sentenceSegments(rng(seed));
}

export function plain(s: Sentence): string {
  return s.segs.map((g) => g.text).join('');
}

/** Generates an article of about `targetChars` characters of text. */
export function generateArticle(seed: number, targetChars: number): Block[] {
  const r = rng(seed);
  const blocks: Block[] = [];
  let chars = 0;
  let nextId = 0;
  const sentence = (): Sentence => ({ id: `s${nextId++}`, segs: sentenceSegments(r) });
  let sinceHeading = 99;
  while (chars < targetChars) {
    let block: Block;
    if (sinceHeading > 6 + Math.floor(r() * 6)) {
      const s = sentence();
      s.segs = [{ text: cap(`${pick(r, ADJS)} ${pick(r, NOUNS)} and the ${pick(r, NOUNS)}`) }];
      block = { id: `b${blocks.length}`, kind: r() < 0.8 ? 'h2' : 'h3', items: [[s]] };
      sinceHeading = 0;
    } else if (r() < 0.1) {
      const items: Sentence[][] = [];
      const k = 3 + Math.floor(r() * 4);
      for (let i = 0; i < k; i++) items.push([sentence()]);
      block = { id: `b${blocks.length}`, kind: r() < 0.6 ? 'ul' : 'ol', items };
    } else {
      const k = 3 + Math.floor(r() * 5);
      const sents: Sentence[] = [];
      for (let i = 0; i < k; i++) sents.push(sentence());
      block = { id: `b${blocks.length}`, kind: r() < 0.05 ? 'blockquote' : 'p', items: [sents] };
      sinceHeading++;
    }
    blocks.push(block);
    for (const item of block.items) for (const s of item) chars += plain(s).length + 1;
  }
  return blocks;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function renderSentence(s: Sentence): string {
  const inner = s.segs
    .map((g) => {
      const t = escapeHtml(g.text);
      if (!g.tag) return t;
      if (g.tag === 'a') return `<a href="#${encodeURIComponent(g.text)}">${t}</a>`;
      return `<${g.tag}>${t}</${g.tag}>`;
    })
    .join('');
  return `<span data-s="${s.id}">${inner}</span>`;
}

function renderItem(sents: Sentence[]): string {
  return sents.map(renderSentence).join(' ');
}

/** Renders the article as a page: a little chrome around it, blocks separated by newlines. */
export function renderPage(blocks: Block[], title: string): string {
  const body = blocks
    .map((b) => {
      if (b.kind === 'ul' || b.kind === 'ol') {
        return `<${b.kind}>\n${b.items.map((it) => `<li>${renderItem(it)}</li>`).join('\n')}\n</${b.kind}>`;
      }
      return `<${b.kind}>${renderItem(b.items[0])}</${b.kind}>`;
    })
    .join('\n');
  return (
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    `<style>body{font:16px/1.5 Georgia,serif;max-width:46em;margin:2em auto} .ad{display:none}</style></head>` +
    `<body><nav><a href="/">Home</a> <a href="/news">News</a></nav>\n<article>\n<h1>${escapeHtml(title)}</h1>\n` +
    `${body}\n</article>\n<div class="ad">Advertisement: sponsored tide tables</div>\n` +
    `<script>window.__pageScript = 'the harbour master at high water';</script>\n</body></html>`
  );
}
