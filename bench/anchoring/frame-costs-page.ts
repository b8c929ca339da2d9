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
  const loop = () => hot && requestAnimationFrame(loop);
  (window as unknown as { frameCost: (kind: string, i: number) => Promise<number> }).frameCost = async (kind: string, i: number) => {
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
        void done.then(resolve);
      }, 0),
    );
    hot = false;
    return ms;
  };
}

