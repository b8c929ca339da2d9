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
  // The first-frame overlay's way (lib/painting/first-frame-overlay.ts): a canvas over the view, in a
  // shadow root; sized before the change (in a frame of its own), kept sized, or at half resolution.
  const host = document.createElement('div');
  host.style.cssText = 'all:initial;position:fixed;top:0;left:0;width:0;height:0;z-index:2147483647';
  const shadow = host.attachShadow({ mode: 'open' });
  const canvas = document.createElement('canvas');
  canvas.style.cssText = 'position:fixed;top:0;left:0;width:100vw;height:100vh;pointer-events:none';
  shadow.append(canvas);
  document.documentElement.append(host);
  const draw = (range: Range, scale: number) => {
    const ctx = canvas.getContext('2d')!;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = 'rgba(255,214,0,.45)';
    for (const r of range.getClientRects()) ctx.fillRect(r.left * scale, r.top * scale, r.width * scale, r.height * scale);
  };
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
  const keptStrip = stripOf(shadow);
  let uiHost: HTMLElement | null = null;
  const loop = () => hot && requestAnimationFrame(loop);
  (window as unknown as { frameCost: (kind: string, i: number) => Promise<number> }).frameCost = async (kind: string, i: number) => {
    if (kind.startsWith('canvas')) {
      const scale = kind === 'canvasHalf' ? 0.5 : 1;
      const [w, h] = [Math.round(innerWidth * scale), Math.round(innerHeight * scale)];
      if (kind === 'canvasResized' || kind === 'canvasPrimed') canvas.width = canvas.height = 0;
      if (canvas.width !== w) canvas.width = w;
      if (canvas.height !== h) canvas.height = h;
      if (kind === 'canvasPrimed') canvas.getContext('2d')!.clearRect(0, 0, 1, 1);
    }
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
        else if (kind.startsWith('canvas')) draw(range, kind === 'canvasHalf' ? 0.5 : 1);
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

