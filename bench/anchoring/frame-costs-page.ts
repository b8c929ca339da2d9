// In-page part of frame-costs.ts (bundled and injected by it).
/** Installed in the page: one change per call in a task of its own (tidemarkChange), timed to the end of the next frame. */
{
  const nextFrameDone = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const idle = async () => {
    await nextFrameDone();
    await new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 1000 }));
  };
  const paras = [...document.querySelectorAll('article p')];
  const reg = (CSS as unknown as { highlights: Map<string, Highlight> }).highlights;
  let hot = false;
  // The highlighter's page element (lib/highlighter/ui/page-ui.ts): a host with a shadow root holding
  // the page-edge strip, one mark per painted highlight; fixed with the highest z-index, or in the top
  // layer (a manual popover) as the highlighter has it.
  const stripOf = (root: ShadowRoot) => {
    const strip = document.createElement('div');
    strip.style.cssText = 'position:fixed;top:0;right:0;width:8px;height:100vh;pointer-events:none';
    root.append(strip);
    return strip;
  };
  const fillStrip = (strip: HTMLElement, i: number) =>
    strip.replaceChildren(
      ...Array.from({ length: 100 }, (_, k) => {
        const b = document.createElement('button');
        b.style.cssText = `position:absolute;right:0;width:8px;height:4px;padding:0;border:0;top:${((k * 7 + i) % 100).toFixed(2)}%;background:rgba(255,214,0,.95)`;
        return b;
      }),
    );
  // The highlighter's element, already on the page (for uiMarks).
  const host = document.createElement('div');
  host.style.cssText = 'all:initial;position:fixed;top:0;left:0;width:0;height:0;z-index:2147483647';
  document.documentElement.append(host);
  const keptStrip = stripOf(host.attachShadow({ mode: 'open' }));
  let uiHost: HTMLElement | null = null;
  const loop = () => hot && requestAnimationFrame(loop);
  (window as unknown as { frameCost: (kind: string, i: number) => Promise<number> }).frameCost = async (kind: string, i: number) => {
    uiHost?.remove();
    uiHost = null;
    await idle();
    if (kind === 'addHot') {
      hot = true;
      loop();
      await new Promise((r) => setTimeout(r, 100));
    }
    const p = paras[(i * 97 + 200) % paras.length];
    const text = p.querySelector('span')!.firstChild as Text;
    const range = document.createRange();
    range.setStart(text, 0);
    range.setEnd(text, Math.min(12, text.length));
    const ms = await new Promise<number>((resolve) =>
      setTimeout(function tidemarkChange() {
        const t0 = performance.now();
        const done = nextFrameDone().then(() => performance.now() - t0);
        if (kind === 'attr') p.setAttribute('data-bench', String(i));
        else if (kind === 'text') text.data = (i % 2 ? 'Writes' : 'Reads') + text.data.slice(text.data.indexOf(' '));
        else if (kind === 'add' || kind === 'addHot') {
          const yellow = reg.get('tidemark-yellow');
          if (yellow) yellow.add(range);
          else reg.set('tidemark-yellow', new Highlight(range));
        }
        else if (kind === 'addOwn') reg.set(`tidemark-fresh${i}`, new Highlight(range));
        else if (kind === 'uiFixed' || kind === 'uiTopLayer') {
          uiHost = document.createElement('div');
          uiHost.style.cssText = 'all:initial;position:fixed;top:0;left:0;width:0;height:0;z-index:2147483647';
          fillStrip(stripOf(uiHost.attachShadow({ mode: 'open' })), i);
          if (kind === 'uiTopLayer') uiHost.popover = 'manual';
          document.documentElement.append(uiHost);
          if (kind === 'uiTopLayer') uiHost.showPopover();
        } else if (kind === 'uiMarks') fillStrip(keptStrip, i);
        void done.then(resolve);
      }, 0),
    );
    hot = false;
    return ms;
  };
}

