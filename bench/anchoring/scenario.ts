/**
 * The benchmark scenario: 100 highlights on a generated article, and an edited version of the
 * article with exact ground truth (where each highlight now is, or that it is gone).
 */
import { freshSentence, generateArticle, plain, rng, type Block, type HighlightKind, type HighlightSpec, type Sentence, type SpanSpec } from '../../tests/anchoring/fixtures/article-model.js';

export interface Scenario {
  original: Block[];
  edited: Block[];
  highlights: HighlightSpec[];
  /** Per highlight: where it is in the edited article, or null when its text is gone. */
  truth: Array<SpanSpec | null>;
  editSummary: Record<string, number>;
}

interface Typo {
  pos: number;
  delta: number;
}

function clone(blocks: Block[]): Block[] {
  return blocks.map((b) => ({ ...b, items: b.items.map((it) => it.map((s) => ({ id: s.id, segs: s.segs.map((g) => ({ ...g })) }))) }));
}

function wordSpans(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const re = /[A-Za-z]+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push([m.index, m.index + m[0].length]);
  return out;
}

export function buildScenario(seed: number, targetChars: number): Scenario {
  const r = rng(seed * 7 + 1);
  const original = generateArticle(seed, targetChars);
  const edited = clone(original);
  const byId = new Map<string, Sentence>();
  const blockOf = new Map<string, number>();
  edited.forEach((b, bi) => b.items.forEach((it) => it.forEach((s) => { byId.set(s.id, s); blockOf.set(s.id, bi); })));
  const origText = new Map<string, string>();
  original.forEach((b) => b.items.forEach((it) => it.forEach((s) => origText.set(s.id, plain(s)))));

  const textBlocks = original.map((b, i) => ({ b, i })).filter(({ b }) => b.kind !== 'h2' && b.kind !== 'h3');
  const paragraphs = textBlocks.filter(({ b }) => b.kind === 'p');
  const used = new Set<string>(); // sentences carrying a highlight
  const highlights: HighlightSpec[] = [];
  const add = (h: HighlightSpec, sentences: string[]) => {
    highlights.push(h);
    sentences.forEach((s) => used.add(s));
  };
  const randomSentence = (): Sentence => {
    for (;;) {
      const { b } = textBlocks[Math.floor(r() * textBlocks.length)];
      const item = b.items[Math.floor(r() * b.items.length)];
      const s = item[Math.floor(r() * item.length)];
      if (!used.has(s.id)) return s;
    }
  };

  // 20 short quotes (a word or two of 3-8 characters): common words, decided by context.
  while (highlights.length < 20) {
    const s = randomSentence();
    const words = wordSpans(plain(s)).filter(([a, b]) => b - a >= 3 && b - a <= 8);
    if (words.length === 0) continue;
    const [a, b] = words[Math.floor(r() * words.length)];
    add({ kind: 'short', startS: s.id, startC: a, endS: s.id, endC: b }, [s.id]);
  }
  // 40 medium quotes (15-80 characters, word aligned, inside one sentence).
  while (highlights.length < 60) {
    const s = randomSentence();
    const words = wordSpans(plain(s));
    const i = Math.floor(r() * words.length);
    let j = i;
    while (j + 1 < words.length && words[j + 1][1] - words[i][0] <= 80 && (words[j][1] - words[i][0] < 15 || r() < 0.6)) j++;
    const len = words[j][1] - words[i][0];
    if (len < 15 || len > 80) continue;
    add({ kind: 'medium', startS: s.id, startC: words[i][0], endS: s.id, endC: words[j][1] }, [s.id]);
  }
  // 25 long quotes: two whole consecutive sentences of a paragraph.
  while (highlights.length < 85) {
    const { b } = paragraphs[Math.floor(r() * paragraphs.length)];
    const sents = b.items[0];
    const i = Math.floor(r() * (sents.length - 1));
    if (used.has(sents[i].id) || used.has(sents[i + 1].id)) continue;
    add({ kind: 'long', startS: sents[i].id, startC: 0, endS: sents[i + 1].id, endC: plain(sents[i + 1]).length }, [sents[i].id, sents[i + 1].id]);
  }
  // 15 cross-paragraph quotes: end of one paragraph into the start of the next one.
  while (highlights.length < 100) {
    const k = Math.floor(r() * (original.length - 1));
    const b1 = original[k];
    const b2 = original[k + 1];
    if (b1.kind !== 'p' || b2.kind !== 'p') continue;
    const last = b1.items[0][b1.items[0].length - 1];
    const first = b2.items[0][0];
    if (used.has(last.id) || used.has(first.id)) continue;
    const w1 = wordSpans(plain(last));
    const w2 = wordSpans(plain(first));
    const start = w1[Math.floor(w1.length / 2 + r() * (w1.length / 2))][0];
    const end = w2[Math.floor(r() * Math.min(w2.length, 6))][1];
    add({ kind: 'cross-paragraph', startS: last.id, startC: start, endS: first.id, endC: end }, [last.id, first.id]);
  }

  const gone = new Set<string>();
  const typos = new Map<string, Typo[]>();
  const summary: Record<string, number> = {};
  const count = (k: string) => (summary[k] = (summary[k] ?? 0) + 1);
  const editR = rng(seed * 13 + 5);

  /** Applies one typo at plain-text position `pos` of sentence `id`. */
  const typo = (id: string, pos: number) => {
    const s = byId.get(id)!;
    let off = pos;
    const seg = s.segs.find((g) => (off < g.text.length ? true : ((off -= g.text.length), false)));
    if (!seg || !/[a-z]/.test(seg.text[off] ?? '')) return false;
    const kind = Math.floor(editR() * 4);
    const letter = String.fromCharCode(97 + Math.floor(editR() * 26));
    const list = typos.get(id) ?? [];
    if (kind === 0) {
      const repl = letter === seg.text[off] ? (letter === 'e' ? 'a' : 'e') : letter;
      seg.text = seg.text.slice(0, off) + repl + seg.text.slice(off + 1);
      list.push({ pos, delta: 0 });
    } else if (kind === 1) {
      seg.text = seg.text.slice(0, off) + seg.text.slice(off + 1);
      list.push({ pos, delta: -1 });
    } else if (kind === 2) {
      seg.text = seg.text.slice(0, off) + seg.text[off] + seg.text.slice(off);
      list.push({ pos, delta: 1 });
    } else {
      if (!/[a-z]/.test(seg.text[off + 1] ?? '') || seg.text[off] === seg.text[off + 1]) return false;
      seg.text = seg.text.slice(0, off) + seg.text[off + 1] + seg.text[off] + seg.text.slice(off + 2);
      list.push({ pos, delta: 0 });
    }
    typos.set(id, list);
    count('typos');
    return true;
  };

  // Typos inside 12 medium/long highlights (fuzzy matching needed), away from the edges.
  const typoTargets = highlights.filter((h) => h.kind === 'medium' || h.kind === 'long').slice(0, 12);
  for (const h of typoTargets) {
    const len = h.startS === h.endS ? h.endC - h.startC : origText.get(h.startS)!.length - h.startC;
    for (let tries = 0; tries < 20; tries++) if (typo(h.startS, h.startC + 3 + Math.floor(editR() * Math.max(1, len - 6)))) break;
  }

  const rewrite = (id: string) => {
    const s = byId.get(id)!;
    s.segs = freshSentence(seed * 31 + gone.size * 977 + 7);
    if (plain(s) === origText.get(id)) s.segs = [{ text: `This passage was rewritten by the editors to say something else about ${id.length} things.` }];
    gone.add(id);
    count('sentences rewritten');
  };
  const single = highlights.filter((h) => h.startS === h.endS);
  // 4 rewritten sentences carry a highlight (gone); 8 sit next to one (context changes); 8 elsewhere.
  for (const h of single.filter((h) => !typoTargets.includes(h)).slice(-4)) rewrite(h.startS);
  const neighbours: string[] = [];
  for (const h of highlights.slice(20, 60)) {
    const b = original[blockOf.get(h.startS)!];
    const sents = b.items.flat();
    const i = sents.findIndex((s) => s.id === h.startS);
    const n = sents[i + 1] ?? sents[i - 1];
    if (n && !used.has(n.id) && !gone.has(n.id)) neighbours.push(n.id);
    if (neighbours.length >= 8) break;
  }
  neighbours.forEach(rewrite);
  for (let k = 0; k < 8; ) {
    const s = randomSentence();
    if (gone.has(s.id)) continue;
    rewrite(s.id);
    k++;
  }

  // Remove 15 paragraphs: 4 that carry a single-sentence highlight (gone), 11 without highlights.
  const removeBlocks = new Set<number>();
  for (const h of single.filter((h) => !typoTargets.includes(h) && !gone.has(h.startS)).slice(0, 4)) removeBlocks.add(blockOf.get(h.startS)!);
  while (removeBlocks.size < 15) {
    const { i, b } = paragraphs[Math.floor(editR() * paragraphs.length)];
    if (b.items.flat().some((s) => used.has(s.id))) continue;
    removeBlocks.add(i);
  }
  for (const i of removeBlocks) for (const s of edited[i].items.flat()) gone.add(s.id);
  summary['paragraphs removed'] = removeBlocks.size;

  // 250 typos scattered over the rest of the text (never inside short quotes or at highlight edges).
  const edges = new Map<string, number[]>();
  for (const h of highlights) {
    edges.set(h.startS, [...(edges.get(h.startS) ?? []), h.startC]);
    edges.set(h.endS, [...(edges.get(h.endS) ?? []), h.endC]);
  }
  const shortSpans = highlights.filter((h) => h.kind === 'short');
  const ids = [...byId.keys()];
  for (let k = 0; k < 250; ) {
    const id = ids[Math.floor(editR() * ids.length)];
    if (gone.has(id)) continue;
    const len = plain(byId.get(id)!).length;
    const pos = Math.floor(editR() * len);
    if ((edges.get(id) ?? []).some((e) => Math.abs(e - pos) <= 2)) continue;
    if (shortSpans.some((h) => h.startS === id && pos >= h.startC - 1 && pos <= h.endC)) continue;
    if (typo(id, pos)) k++;
  }

  // Insert 30 new paragraphs at random places.
  const extra = generateArticle(seed * 101 + 3, 30 * 1500).filter((b) => b.kind === 'p').slice(0, 30);
  extra.forEach((b, n) => {
    b.id = `x${n}`;
    b.items[0].forEach((s, m) => (s.id = `x${n}_${m}`));
  });
  const finalBlocks: Block[] = [];
  const insertAfter = new Map<number, Block[]>();
  extra.forEach((b) => {
    const at = Math.floor(editR() * edited.length);
    insertAfter.set(at, [...(insertAfter.get(at) ?? []), b]);
  });
  edited.forEach((b, i) => {
    if (!removeBlocks.has(i)) finalBlocks.push(b);
    finalBlocks.push(...(insertAfter.get(i) ?? []));
  });
  summary['paragraphs inserted'] = extra.length;

  const mapChar = (id: string, c: number) => c + (typos.get(id) ?? []).filter((t) => t.pos < c).reduce((a, t) => a + t.delta, 0);
  const truth = highlights.map((h): SpanSpec | null => {
    if (gone.has(h.startS) || gone.has(h.endS)) return null;
    return { startS: h.startS, startC: mapChar(h.startS, h.startC), endS: h.endS, endC: mapChar(h.endS, h.endC) };
  });
  return { original, edited: finalBlocks, highlights, truth, editSummary: summary };
}

export type { HighlightKind };
