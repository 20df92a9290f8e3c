import { useEffect, useState } from 'react';

/** The class given to notistack's top-centre container, placed by `SNACKBARS_BELOW_SEARCH_STYLES`. */
export const SNACKBARS_BELOW_SEARCH = 'inbox-snackbars-below-search';
const TOP = '--inbox-snackbar-top';

/**
 * Snackbars stay top centre (SPEC.md section 9) but start under the search area: stacked three high
 * they covered the search bar a user was typing in. Two classes outrank notistack's own one.
 */
export const SNACKBARS_BELOW_SEARCH_STYLES = {
  [`.notistack-SnackbarContainer.${SNACKBARS_BELOW_SEARCH}`]: { top: `var(${TOP}, 24px)` },
};

/**
 * Keeps the page's snackbar top at the bottom edge of the element given to the returned ref (the
 * search bar, taller while the advanced search is open), following its size.
 */
export function useSnackbarsBelow(): (el: HTMLElement | null) => void {
  const [el, setEl] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!el) return;
    const root = document.documentElement;
    const update = () =>
      root.style.setProperty(TOP, `${Math.round(el.getBoundingClientRect().bottom) + 8}px`);
    update();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(el);
    window.addEventListener('resize', update);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', update);
      root.style.removeProperty(TOP);
    };
  }, [el]);
  return setEl;
}
