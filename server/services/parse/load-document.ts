import { createRequire } from 'node:module';
import type * as Linkedom from 'linkedom';

// linkedom builds the tree exactly as the markup is written: it keeps attribute names in their
// original case and adds no <html>, <head> or <body> that the page left out. Browsers (and
// Readability, which expects a browser-like document) see lower-case attribute names and those
// three elements, so the document is brought into that shape once, here.

/**
 * linkedom, loaded (its CommonJS build, synchronously) by the first page parsed: about 0.3 s of CPU
 * that a server start or a CLI command that parses no page does not pay.
 */
let linkedom: typeof Linkedom | undefined;
const requireHere = createRequire(import.meta.url);

const HEAD_ELEMENTS = new Set(['title', 'meta', 'link', 'base', 'style', 'script', 'noscript', 'template']);

/** Parses HTML into a linkedom document with lower-case HTML attribute names and html/head/body. */
export function loadHtmlDocument(html: string): Document {
  linkedom ??= requireHere('linkedom') as typeof Linkedom;
  const { document } = linkedom.parseHTML(html) as unknown as { document: Document };
  ensureSkeleton(document);
  lowerCaseAttributeNames(document);
  return document;
}

function ensureSkeleton(document: Document): void {
  const root = document.documentElement as Element | null;
  if (
    root &&
    root.localName?.toLowerCase() === 'html' &&
    childElement(root, 'head') &&
    childElement(root, 'body') &&
    topLevelElements(document).length === 1
  ) {
    return;
  }

  const html = document.createElement('html');
  const head = document.createElement('head');
  const body = document.createElement('body');
  html.append(head, body);
  let inBody = false;

  const place = (node: Node): void => {
    if (node.nodeType === 1) {
      const element = node as Element;
      const name = element.localName.toLowerCase();
      if (name === 'html') {
        copyAttributes(element, html);
        for (const child of [...element.childNodes]) place(child);
        return;
      }
      if (name === 'head') {
        for (const child of [...element.childNodes]) head.append(child);
        return;
      }
      if (name === 'body') {
        copyAttributes(element, body);
        inBody = true;
        for (const child of [...element.childNodes]) body.append(child);
        return;
      }
      if (!inBody && HEAD_ELEMENTS.has(name)) {
        head.append(element);
        return;
      }
      inBody = true;
      body.append(element);
      return;
    }
    if (node.nodeType === 3 && !inBody && !(node.textContent ?? '').trim()) return; // blank text before content
    if (node.nodeType === 10) return; // doctype stays where it is
    if (node.nodeType === 3) inBody = true;
    (inBody ? body : head).append(node);
  };

  for (const node of [...document.childNodes]) {
    if (node.nodeType === 10) continue;
    node.parentNode?.removeChild(node);
    place(node);
  }
  document.appendChild(html);
}

function topLevelElements(document: Document): Element[] {
  return [...document.childNodes].filter((node) => node.nodeType === 1) as Element[];
}

function childElement(parent: Element, name: string): Element | undefined {
  return [...parent.children].find((child) => child.localName.toLowerCase() === name);
}

function copyAttributes(from: Element, to: Element): void {
  for (const attribute of [...from.attributes]) {
    if (!to.hasAttribute(attribute.name)) to.setAttribute(attribute.name, attribute.value);
  }
}

/**
 * Lower-cases attribute names outside SVG and MathML (where camelCase names such as viewBox matter).
 * One walk down the tree that leaves those subtrees out: asking every element for its ancestors
 * costs the page's depth per element, seconds on a large page nested hundreds deep.
 */
function lowerCaseAttributeNames(document: Document): void {
  const stack: Element[] = [...document.children];
  while (stack.length > 0) {
    const element = stack.pop()!;
    const name = element.localName.toLowerCase();
    if (name === 'svg' || name === 'math') continue;
    for (const child of element.children) stack.push(child);
    for (const attribute of [...element.attributes]) {
      const lower = attribute.name.toLowerCase();
      if (lower === attribute.name) continue;
      const value = attribute.value;
      element.removeAttribute(attribute.name);
      if (!element.hasAttribute(lower)) element.setAttribute(lower, value);
    }
  }
}
