// Opening a modal <dialog> so that the focus comes back where it was when it closes, however it
// closes. Chromium gives the focus back only when the dialog itself closes; the library's dialogs
// leave the page as their state clears (Escape's cancel event clears it before the dialog has shut),
// and the focus then fell to the page's body, losing a keyboard user's place.

/** Shows `dialog` as a modal; the function answered, called as it leaves the page, puts the focus back. */
export function openModal(dialog: HTMLDialogElement | null): () => void {
  const opener = document.activeElement as HTMLElement | null;
  dialog?.showModal();
  return () => {
    // Nothing outside an open modal dialog takes the focus: shut it first.
    if (dialog?.open) dialog.close();
    const now = document.activeElement;
    if (opener?.isConnected && (!now || now === document.body || dialog?.contains(now))) opener.focus();
  };
}
