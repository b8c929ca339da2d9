import { describe, expect, it } from 'vitest';
import { loadHtmlDocument } from './load-document.js';

// Pages are brought into the shape Readability and the metadata reader expect: lower-case HTML
// attribute names however deep the element, while SVG and MathML keep their camelCase names.

describe('loading a page', () => {
  it('lower-cases HTML attribute names at every depth, and leaves SVG and MathML as written', () => {
    const deep = `${'<DIV CLASS="box">'.repeat(500)}<A HREF="/x" DATA-Kind="deep">x</A>${'</DIV>'.repeat(500)}`;
    const document = loadHtmlDocument(
      `<META NAME="Description" CONTENT="Nets."><body>${deep}` +
        '<svg viewBox="0 0 10 10"><linearGradient gradientUnits="userSpaceOnUse"/></svg>' +
        '<math><mi mathVariant="bold">x</mi></math><P ID="after">after</P></body>',
    );
    expect(document.querySelector('meta')!.getAttributeNames().sort()).toEqual(['content', 'name']);
    const link = document.querySelector('a')!;
    expect(link.getAttributeNames().sort()).toEqual(['data-kind', 'href']);
    expect(link.parentElement!.getAttributeNames()).toEqual(['class']);
    expect(document.querySelector('svg')!.getAttributeNames()).toEqual(['viewBox']);
    expect(document.querySelector('linearGradient, lineargradient')!.getAttributeNames()).toEqual(['gradientUnits']);
    expect(document.querySelector('mi')!.getAttributeNames()).toEqual(['mathVariant']);
    expect(document.querySelector('p')!.getAttributeNames()).toEqual(['id']);
  });
});
