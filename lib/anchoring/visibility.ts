/**
 * Which elements contribute visible text, and which ones separate text like a block does.
 *
 * Decisions that must agree between the page where a highlight was made and the page where it is
 * re-anchored are taken from the DOM alone (tag names, the `hidden` attribute). Computed style
 * (`display: none`, `visibility: hidden`) is consulted only where a real style engine is present.
 */

/** A set of tag names, written as one space-separated string. */
const tagSet = (names: string): Set<string> => new Set(names.split(' '));

/** Elements whose content is never page text a reader sees (MathML's source text reads as garbage once flattened). */
const SKIPPED_TAGS = tagSet(
  'script style noscript template head title meta link base textarea select option optgroup ' +
  'datalist iframe frame frameset object embed canvas video audio picture map math',
);

/** Elements that break the text flow: a space is inserted at their start and end. */
const BLOCK_TAGS = tagSet(
  'address article aside blockquote body caption center dd details dialog dir div dl dt fieldset ' +
  'figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html legend li main menu nav ol ' +
  'p pre section summary table tbody td tfoot th thead tr ul img input button br',
);

/** True when elements with this local name are excluded with their subtree, whatever the styles say. */
export function isSkippedTag(localName: string): boolean {
  return SKIPPED_TAGS.has(localName);
}

/** Elements allowed to have a shadow root (attachShadow), so others need not be asked. */
const SHADOW_HOSTS = tagSet('article aside blockquote body div footer h1 h2 h3 h4 h5 h6 header main nav p section span');

/** tagFlags bits: left out with its subtree; separates text like a block (or `<br>`). */
export const TAG_SKIPPED = 1;
export const TAG_BLOCK = 2;
/** Bare elements of the tag (no class, id or style attribute) share a checked parent's visibility (below). */
export const TAG_INHERITS = 4;
/** May have a shadow root. */
export const TAG_HOST = 8;

/** What an element's local name says about its text (TAG_* bits); `rules` null: computed style is not used. */
export function tagFlags(name: string, rules: HidingRules | null): number {
  return (
    (SKIPPED_TAGS.has(name) ? TAG_SKIPPED : 0) |
    (BLOCK_TAGS.has(name) ? TAG_BLOCK : 0) |
    (BARE_INLINE_TAGS.has(name) || (rules && BARE_BLOCK_TAGS.has(name) && rules.sparesBareTag(name)) ? TAG_INHERITS : 0) |
    (SHADOW_HOSTS.has(name) || name.includes('-') ? TAG_HOST : 0)
  );
}

/**
 * Inline phrasing elements without class, id or style attribute, inside an element whose style was
 * checked, are taken to share its visibility: style rules that hide such bare elements by tag alone
 * are rare, and skipping the check keeps indexing long pages fast (a computed-style read costs about
 * a microsecond per element).
 */
const BARE_INLINE_TAGS = tagSet(
  'a abbr b bdi bdo cite code data del dfn em i ins kbd mark q s samp small span strong sub sup ' +
  'time u var',
);

/** Block elements the browser's own style sheet never hides: bare ones may share their parent's visibility too. */
const BARE_BLOCK_TAGS = tagSet(
  'p li ul ol dl dd dt h1 h2 h3 h4 h5 h6 blockquote pre table caption thead tbody tfoot tr td th ' +
  'section article div figure figcaption header footer main aside nav address hgroup',
);

/** Declarations that hide an element or give it back its visibility. */
function hidesOrShows(style: CSSStyleDeclaration): boolean {
  const d = style.getPropertyValue('display');
  const v = style.getPropertyValue('visibility');
  const cv = style.getPropertyValue('content-visibility');
  return d === 'none' || d.includes('var(') || v !== '' || cv === 'hidden';
}

/**
 * What the page's style sheets can do to elements without class, id or style attribute: the tag names
 * that a rule hiding (or showing) elements names as its subject. Such "bare" elements of other tags,
 * inside an element whose style was checked, share its visibility, so indexing a long page reads the
 * computed style of far fewer elements. Rules the check cannot read (cross-origin sheets) or whose
 * subject is not a plain tag (`*`, `[attr]`, `:nth-child()`) make every tag count as named.
 */
export class HidingRules {
  private readonly tags = new Set<string>();
  /** Classes a hiding (or showing) rule's subject names: only elements with one of them need their own check. */
  private readonly classes = new Set<string>();
  /** A class name the scan cannot read (escaped characters): classed elements all count, bare ones need not. */
  private unreadClass = false;
  private all = false;

  constructor(doc: Document) {
    const sheets: CSSStyleSheet[] = [...Array.from(doc.styleSheets), ...(doc.adoptedStyleSheets ?? [])];
    for (const sheet of sheets) {
      let rules: CSSRuleList;
      try {
        rules = sheet.cssRules;
      } catch {
        this.all = true; // a cross-origin sheet: its rules cannot be read
        return;
      }
      this.scan(rules);
      if (this.all) return;
    }
  }

  /** True when no readable rule hides or shows bare `localName` elements by themselves. */
  sparesBareTag(localName: string): boolean {
    return !this.all && !this.tags.has(localName);
  }

  /**
   * A selector for the elements that may be hidden or shown on their own (HIDDEN_OR_STYLED), narrowed to the
   * classes the rules name when there are few: an element whose classes no such rule names is styled by its
   * tag alone, as a bare one is.
   */
  styledSelector(): string {
    return this.all || this.unreadClass || this.classes.size > MAX_NAMED_CLASSES ? HIDDEN_OR_STYLED : `[hidden],[style],[id]${[...this.classes].map((c) => `,.${c}`).join('')}`;
  }

  private scan(rules: CSSRuleList): void {
    for (const rule of Array.from(rules)) {
      if (this.all) return;
      // An @import's sheet, a grouping rule's (@media, @supports, @layer) rules.
      let grouped: CSSRuleList | undefined;
      try {
        grouped = (rule as CSSImportRule).styleSheet?.cssRules ?? (rule as CSSGroupingRule).cssRules;
      } catch {
        this.all = true; // an imported sheet from another origin
        return;
      }
      if (grouped) this.scan(grouped);
      const style = (rule as CSSStyleRule).style;
      const selector = (rule as CSSStyleRule).selectorText;
      if (!style || typeof selector !== 'string' || !hidesOrShows(style)) continue;
      for (const one of selector.split(',')) {
        const parts = one.trim().split(/\s*[\s>+~]\s*/);
        const subject = parts[parts.length - 1] ?? '';
        const tag = /^[a-zA-Z][a-zA-Z0-9-]*/.exec(subject)?.[0];
        if (tag) {
          // `p.note` or `p#x` cannot match a bare <p>; `p`, `p:first-child`, `p[lang]` can.
          if (!/^[a-zA-Z][a-zA-Z0-9-]*[.#]/.test(subject)) this.tags.add(tag.toLowerCase());
        } else if (!/^[.#]/.test(subject)) {
          this.all = true; // `*`, `[attr]`, `:not(...)`: may match any bare element
          return;
        }
        // Every class the subject names, in `.a.b:not(.c)` too; a name the plain pattern does not read whole
        // (escaped or non-ASCII characters, as in `.sm\:hidden`) makes every classed element count.
        for (const m of subject.matchAll(/\.([^.#:[\s>+~()]*)/g)) {
          if (/^-?[_a-zA-Z][\w-]*$/.test(m[1])) this.classes.add(m[1]);
          else this.unreadClass = true;
        }
      }
    }
  }
}

/**
 * Attributes whose change can show (or hide) an element's text: a <details> or <dialog> opened, `hidden`,
 * a class or inline style. The highlighter observes them while some highlights are not found, and the
 * index patcher walks such an element again (text-index-patch.ts).
 */
export const SHOWING_ATTRIBUTES = ['open', 'hidden', 'class', 'style'];

/** Attributes that hide an element or may give it its own visibility (one selector test instead of four calls). */
export const HIDDEN_OR_STYLED = '[hidden],[class],[style],[id]';
/** Past this many classes named by hiding rules, every classed element counts as styled (a long selector costs more). */
const MAX_NAMED_CLASSES = 64;

/**
 * Elements that make the text of an element holding them other than plain: all but bare inline ones (which
 * break nothing and share their parent's visibility), `styled` being the selector of those that may be hidden
 * or shown on their own (HIDDEN_OR_STYLED, or HidingRules.styledSelector). An element without any is indexed
 * whole (text-index.ts). A bare <span> with a shadow root is the one case read wrongly (its light text
 * instead of its shadow tree).
 */
export const notPlain = (styled: string): string => `:not(${[...BARE_INLINE_TAGS].join()}),${styled}`;

/** Result of a style check on one element. */
const STYLE_SHOWN = 0;
/** `display: none`: the whole subtree is skipped. */
export const STYLE_NONE = 1;
/** `visibility: hidden|collapse`: this element's own text is skipped; children may override. */
export const STYLE_INVISIBLE = 2;

export type StyleCheck = (el: Element) => number;

/**
 * Returns a style check for elements of `doc`, or null when computed style should not be used.
 * `mode` 'auto' uses computed style when the window provides getComputedStyle.
 */
export function createStyleCheck(doc: Document, mode: boolean | 'auto'): StyleCheck | null {
  if (mode === false) return null;
  const win = doc.defaultView;
  if (!win || typeof win.getComputedStyle !== 'function') return null;
  const getStyle = win.getComputedStyle.bind(win);
  return (el: Element): number => {
    const cs = getStyle(el);
    if (cs.display === 'none') return STYLE_NONE;
    const v = cs.visibility;
    return v === 'hidden' || v === 'collapse' ? STYLE_INVISIBLE : STYLE_SHOWN;
  };
}
