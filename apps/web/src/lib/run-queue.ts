/**
 * Runs `worker` over `items` with at most `limit` in flight, in order of start; a failing item does
 * not stop the others. Only `limit` files are read at a time, so memory stays bounded.
 */
export async function runQueue<T>(
  items: readonly T[],
  limit: number,
  worker: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      await worker(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Files an upload should skip: the DICOMDIR index and hidden OS files are not instances. */
export function isUploadCandidate(file: { name: string }): boolean {
  const name = file.name.toUpperCase();
  return name !== 'DICOMDIR' && !name.startsWith('.') && name !== 'THUMBS.DB';
}
