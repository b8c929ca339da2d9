/**
 * A long, repetitive, real-world-like page for the anchoring benchmark: a generated API reference of
 * over a million characters. Methods come in mirror-image pairs documented in the same words
 * (addListener / removeListener, getItem / setItem, ...), boilerplate sentences recur hundreds of times
 * ("Returns null if the store is closed."), and short words like "null" or "string" occur thousands of
 * times. Rendered with the article model of article.ts (every sentence in a `<span data-s>`), so
 * highlights and edits are tracked exactly. Deterministic for a seed; no network.
 */
import { rng, type Block, type HighlightSpec, type Segment, type Sentence, type SpanSpec } from './article.js';

export interface ApiScenario {
  original: Block[];
  edited: Block[];
  highlights: HighlightSpec[];
  truth: Array<SpanSpec | null>;
  editSummary: Record<string, number>;
}

const PAIRS: Array<[string, string, string, string]> = [
  // name A, name B, verb A, verb B (third person)
  ['add', 'remove', 'Adds', 'Removes'],
  ['get', 'set', 'Reads', 'Writes'],
  ['enable', 'disable', 'Enables', 'Disables'],
  ['open', 'close', 'Opens', 'Closes'],
  ['start', 'stop', 'Starts', 'Stops'],
  ['show', 'hide', 'Shows', 'Hides'],
  ['lock', 'unlock', 'Locks', 'Unlocks'],
  ['push', 'pop', 'Pushes', 'Pops'],
  ['attach', 'detach', 'Attaches', 'Detaches'],
  ['encode', 'decode', 'Encodes', 'Decodes'],
];
const NOUNS = [
  'Listener', 'Item', 'Entry', 'Handler', 'Observer', 'Channel', 'Stream', 'Buffer', 'Session', 'Cursor', 'Token', 'Timer',
  'Worker', 'Frame', 'Layer', 'Filter', 'Record', 'Window', 'Socket', 'Task', 'Route', 'Header', 'Cookie', 'Region',
];
const CLASSES = ['Store', 'Queue', 'EventTarget', 'Registry', 'Scheduler', 'Cache', 'Pipeline', 'Document', 'Transport', 'Index', 'Vault', 'Canvas'];
const TYPES = ['string', 'number', 'boolean', 'object', 'function', 'Promise', 'ArrayBuffer', 'null'];
const BOILERPLATE = [
  'Returns null if the store is closed.',
  'This method is safe to call from any thread.',
  'Throws a TypeError if the key is not a string.',
  'The callback is called at most once.',
  'See also the section on error handling above.',
  'Returns true on success and false otherwise.',
];

export function generateApiReference(seed: number, targetChars: number): Block[] {
  const r = rng(seed);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const blocks: Block[] = [];
  let nextId = 0;
  let chars = 0;
  const sent = (segs: Segment[]): Sentence => ({ id: `a${nextId++}`, segs });
  const push = (b: Omit<Block, 'id'>) => {
    const block = { ...b, id: `b${blocks.length}` };
    blocks.push(block);
    for (const it of block.items) for (const s of it) chars += s.segs.reduce((a, g) => a + g.text.length, 0) + 1;
  };
  let section = 0;
  while (chars < targetChars) {
    const cls = `${pick(CLASSES)}${section}`;
    push({ kind: 'h2', items: [[sent([{ text: `The ${cls} interface` }])]] });
    push({ kind: 'p', items: [[sent([{ text: `The ` }, { text: cls, tag: 'code' }, { text: ` interface groups the methods below. Every method is documented in the same way: what it does, its parameters, what it returns and when it throws.` }])]] });
    for (let m = 0; m < 6; m++) {
      const [a, b, va, vb] = pick(PAIRS);
      const noun = pick(NOUNS);
      const type = pick(TYPES);
      const version = `${1 + Math.floor(r() * 4)}.${Math.floor(r() * 10)}`;
      for (const [name, verb] of [[a, va], [b, vb]] as const) {
        const method = `${name}${noun}`;
        push({ kind: 'h3', items: [[sent([{ text: `${cls}.${method}(key, value)`, tag: 'code' }])]] });
        push({
          kind: 'p',
          items: [[
            sent([{ text: `${verb} the ${noun.toLowerCase()} stored under the given key in the ${cls} instance.` }]),
            sent([{ text: `The key must be a ` }, { text: 'string', tag: 'code' }, { text: ` of at most 256 characters, and the value any ` }, { text: type, tag: 'code' }, { text: '.' }]),
            sent([{ text: pick(BOILERPLATE) }]),
            sent([{ text: pick(BOILERPLATE) }]),
          ]],
        });
        push({
          kind: 'ul',
          items: [
            [sent([{ text: 'key', tag: 'code' }, { text: ': a string naming the entry; it must not be null.' }])],
            [sent([{ text: 'value', tag: 'code' }, { text: `: the ${noun.toLowerCase()} to use, or null to use the default.` }])],
            [sent([{ text: 'Returns', tag: 'strong' }, { text: `: a Promise that resolves to null when done.` }])],
          ],
        });
        push({ kind: 'p', items: [[sent([{ text: `Available since version ${version}. ${pick(BOILERPLATE)}` }])]] });
      }
    }
    section++;
  }
  return blocks;
}

function clone(blocks: Block[]): Block[] {
  return blocks.map((b) => ({ ...b, items: b.items.map((it) => it.map((s) => ({ id: s.id, segs: s.segs.map((g) => ({ ...g })) }))) }));
}

function plainOf(s: Sentence): string {
  return s.segs.map((g) => g.text).join('');
}

function words(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const re = /[A-Za-z]+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push([m.index, m.index + m[0].length]);
  return out;
}

/**
 * 120 highlights on the reference (40 short words that occur hundreds of times, 50 phrases of
 * descriptions that have a twin, 30 whole boilerplate or list sentences), and an edited version: 12
 * method entries carrying a highlight removed while their twin stays (those highlights are gone),
 * 400 typos away from the highlights' own text, 20 new entries inserted.
 */
export function buildApiScenario(seed: number, targetChars: number): ApiScenario {
  const original = generateApiReference(seed, targetChars);
  const r = rng(seed * 17 + 3);
  const all: Array<{ s: Sentence; block: number }> = [];
  original.forEach((b, i) => b.items.forEach((it) => it.forEach((s) => all.push({ s, block: i }))));
  const used = new Set<string>();
  const highlights: HighlightSpec[] = [];
  const randomSentence = (f: (s: Sentence, block: Block) => boolean) => {
    for (;;) {
      const { s, block } = all[Math.floor(r() * all.length)];
      if (!used.has(s.id) && f(s, original[block])) return s;
    }
  };
  while (highlights.length < 40) {
    const s = randomSentence((x) => /\b(null|string|key|value)\b/.test(plainOf(x)));
    const t = plainOf(s);
    const w = words(t).filter(([a, b]) => /^(null|string|key|value)$/.test(t.slice(a, b)));
    const [a, b] = w[Math.floor(r() * w.length)];
    highlights.push({ kind: 'short', startS: s.id, startC: a, endS: s.id, endC: b });
    used.add(s.id);
  }
  while (highlights.length < 90) {
    const s = randomSentence((x, b) => b.kind === 'p' && / the given key in the /.test(plainOf(x)));
    const t = plainOf(s);
    const at = t.indexOf('stored under the given key');
    highlights.push({ kind: 'medium', startS: s.id, startC: at, endS: s.id, endC: at + 'stored under the given key'.length + (r() < 0.5 ? 0 : ' in the'.length) });
    used.add(s.id);
  }
  while (highlights.length < 120) {
    const s = randomSentence((x, b) => b.kind === 'ul' || BOILERPLATE.includes(plainOf(x)));
    highlights.push({ kind: 'long', startS: s.id, startC: 0, endS: s.id, endC: plainOf(s).length });
    used.add(s.id);
  }

  // Edits.
  const edited = clone(original);
  const byId = new Map<string, Sentence>();
  edited.forEach((b) => b.items.forEach((it) => it.forEach((s) => byId.set(s.id, s))));
  const blockOf = new Map<string, number>();
  original.forEach((b, i) => b.items.forEach((it) => it.forEach((s) => blockOf.set(s.id, i))));
  const summary: Record<string, number> = {};
  const gone = new Set<string>();
  // Remove 12 whole method entries (heading, description, list, version line) that carry a twin-phrase highlight.
  const removed = new Set<number>();
  for (const h of highlights.filter((x) => x.kind === 'medium').slice(0, 12)) {
    const d = blockOf.get(h.startS)!;
    for (const i of [d - 1, d, d + 1, d + 2]) removed.add(i);
  }
  for (const i of removed) for (const s of edited[i].items.flat()) gone.add(s.id);
  summary['method entries removed (their twin stays)'] = removed.size / 4;

  // 400 typos, never inside a highlight nor within 2 characters of its edges.
  const typos = new Map<string, Array<{ pos: number; delta: number }>>();
  const spans = new Map<string, Array<[number, number]>>();
  for (const h of highlights) spans.set(h.startS, [...(spans.get(h.startS) ?? []), [h.startC, h.endC]]);
  const ids = [...byId.keys()];
  let nTypos = 0;
  while (nTypos < 400) {
    const id = ids[Math.floor(r() * ids.length)];
    if (gone.has(id)) continue;
    const s = byId.get(id)!;
    const len = plainOf(s).length;
    const pos = Math.floor(r() * len);
    if ((spans.get(id) ?? []).some(([a, b]) => pos >= a - 2 && pos <= b + 2)) continue;
    let off = pos;
    const seg = s.segs.find((g) => (off < g.text.length ? true : ((off -= g.text.length), false)));
    if (!seg || !/[a-z]/.test(seg.text[off] ?? '')) continue;
    const del = r() < 0.5;
    seg.text = del ? seg.text.slice(0, off) + seg.text.slice(off + 1) : seg.text.slice(0, off) + 'x' + seg.text.slice(off);
    typos.set(id, [...(typos.get(id) ?? []), { pos, delta: del ? -1 : 1 }]);
    nTypos++;
  }
  summary.typos = nTypos;

  // 20 new entries inserted at random places (from another seed's reference, ids renamed).
  const extra = generateApiReference(seed * 101 + 7, 40_000).slice(2, 2 + 20 * 4);
  extra.forEach((b, n) => {
    b.id = `x${n}`;
    b.items.forEach((it, k) => it.forEach((s, m) => (s.id = `x${n}_${k}_${m}`)));
  });
  const insertAfter = new Map<number, Block[]>();
  for (let k = 0; k < extra.length; k += 4) {
    let at = Math.floor(r() * edited.length);
    while (original[at].kind !== 'p' || original[at + 1]?.kind !== 'h3') at = (at + 1) % edited.length;
    insertAfter.set(at, [...(insertAfter.get(at) ?? []), ...extra.slice(k, k + 4)]);
  }
  summary['method entries inserted'] = extra.length / 4;
  const finalBlocks: Block[] = [];
  edited.forEach((b, i) => {
    if (!removed.has(i)) finalBlocks.push(b);
    finalBlocks.push(...(insertAfter.get(i) ?? []));
  });

  const mapChar = (id: string, c: number) => c + (typos.get(id) ?? []).filter((t) => t.pos < c).reduce((a, t) => a + t.delta, 0);
  const truth = highlights.map((h): SpanSpec | null =>
    gone.has(h.startS) ? null : { startS: h.startS, startC: mapChar(h.startS, h.startC), endS: h.endS, endC: mapChar(h.endS, h.endC) },
  );
  return { original, edited: finalBlocks, highlights, truth, editSummary: summary };
}
