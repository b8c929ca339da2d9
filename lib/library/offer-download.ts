/** Hands `blob` to the browser as a download named `name` (the browser's own download UI takes over). */
export function offerDownload(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  // The download has read the blob long before this; the address is not needed after it starts.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
