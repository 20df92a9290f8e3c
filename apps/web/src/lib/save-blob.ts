/** Saves a Blob as a file named `name`, through a Blob URL and an anchor the browser downloads. */
export function saveBlob(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = name;
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Give the browser time to start reading the Blob before it is released.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
