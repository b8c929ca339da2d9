// Copying a highlight's text for the reader (the toolbar's Copy, a trusted click). The page's async
// clipboard exists only in secure contexts, so plain-http pages get a copy command instead, whose
// data we set ourselves. Neither touches the page's selection.

/** Puts `text` on the clipboard. False when the browser refused both ways. */
export async function copyText(text: string, doc: Document = document): Promise<boolean> {
  const clipboard = doc.defaultView?.navigator.clipboard;
  if (clipboard && typeof clipboard.writeText === 'function') {
    try {
      await clipboard.writeText(text);
      return true;
    } catch {
      // e.g. the document lost focus or a permissions policy forbids it: try the copy command.
    }
  }
  return copyWithCommand(text, doc);
}

/** The copy command, with our text as its data (the page's own copy handlers do not run). */
function copyWithCommand(text: string, doc: Document): boolean {
  let written = false;
  const onCopy = (e: ClipboardEvent) => {
    if (!e.clipboardData) return;
    e.clipboardData.setData('text/plain', text);
    e.preventDefault();
    e.stopImmediatePropagation();
    written = true;
  };
  const win = doc.defaultView;
  const target: EventTarget = win ?? doc;
  target.addEventListener('copy', onCopy as EventListener, true);
  try {
    doc.execCommand('copy');
  } catch {
    written = false;
  } finally {
    target.removeEventListener('copy', onCopy as EventListener, true);
  }
  return written;
}
