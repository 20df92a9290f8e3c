import { useEffect, useState, type ReactNode } from 'react';
import { Box } from '@mui/material';
import { scrollCue, type ScrollCue } from '../lib/scroll-cue';

/**
 * Watches a sideways-scrolling element (give `ref` to it) and says which of its sides hide content,
 * again on every scroll and whenever it or its content changes size.
 */
export function useScrollCue<T extends HTMLElement>(): { ref: (el: T | null) => void; cue: ScrollCue } {
  const [el, setEl] = useState<T | null>(null);
  const [cue, setCue] = useState<ScrollCue>('none');
  useEffect(() => {
    if (!el) return;
    const update = () => setCue(scrollCue(el));
    update();
    el.addEventListener('scroll', update, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(el);
    if (el.firstElementChild) observer?.observe(el.firstElementChild);
    return () => {
      el.removeEventListener('scroll', update);
      observer?.disconnect();
    };
  }, [el]);
  return { ref: setEl, cue };
}

const SHADOW = 'rgba(0, 0, 0, 0.22)';

/**
 * The frame around a wide table's scrolling box: a shadow on each side where columns lie out of view,
 * so a user at 1280 px sees that the table goes on (overlay scroll bars show only while scrolling).
 */
export function ScrollCueFrame({
  cue,
  sx,
  children,
}: {
  cue: ScrollCue;
  /** Styles of the frame added to its own (its size in a flex parent, a cue of its own). */
  sx?: Record<string, unknown>;
  children: ReactNode;
}) {
  return (
    <Box
      data-scroll-cue={cue}
      sx={{
        position: 'relative',
        minWidth: 0,
        maxWidth: '100%',
        '&::before, &::after': {
          content: '""',
          position: 'absolute',
          top: 0,
          bottom: 0,
          width: 20,
          pointerEvents: 'none',
          zIndex: 4,
          opacity: 0,
          transition: 'opacity 150ms',
        },
        '&::before': { left: 0, background: `linear-gradient(to right, ${SHADOW}, transparent)` },
        '&::after': { right: 0, background: `linear-gradient(to left, ${SHADOW}, transparent)` },
        '&[data-scroll-cue="start"]::before, &[data-scroll-cue="both"]::before': { opacity: 1 },
        '&[data-scroll-cue="end"]::after, &[data-scroll-cue="both"]::after': { opacity: 1 },
        ...sx,
      }}
    >
      {children}
    </Box>
  );
}
