/** Which sides of a sideways-scrolling frame hide content: where its "more this way" shadow shows. */
export type ScrollCue = 'none' | 'start' | 'end' | 'both';

/**
 * The sides that hide columns, from the frame's scroll position. A pixel of slack: browsers round
 * scroll positions at some zoom levels, and a column shown but for a fraction of a pixel needs no cue.
 */
export function scrollCue({
  scrollLeft,
  scrollWidth,
  clientWidth,
}: {
  scrollLeft: number;
  scrollWidth: number;
  clientWidth: number;
}): ScrollCue {
  const before = scrollLeft > 1;
  const after = scrollLeft + clientWidth < scrollWidth - 1;
  if (before && after) return 'both';
  if (before) return 'start';
  if (after) return 'end';
  return 'none';
}
