// Eleusis's layout in the felt's space (js/games/eleusis.js draws it): the mainline and its
// sidelines are drawn at the largest card at which every row is in sight, at the table and in the
// replayer, on any screen. eleusis.css sizes everything of the layout from the mainline's card
// (--main-card): the sidelines' cards, how they overlap, the gaps, the Forecaster's marker.

/** The mainline card's width (px) the layout is drawn at, at most and at least. */
const MAIN_CARD = { most: 64, least: 16 };

/**
 * The largest card at which the whole layout fits `scroller` (the box the felt gives it), none of
 * it scrolled out: a binary search, each step one layout of the scroller's few dozen cards. Only
 * when even the least card would not fit does the layout scroll.
 */
export function fitLayout(scroller) {
  const mainline = scroller.querySelector(".mainline");
  if (!mainline || !scroller.isConnected || scroller.clientHeight < 1) return;
  const fits = (w) => {
    mainline.style.setProperty("--main-card", `${w}px`);
    return scroller.scrollHeight <= scroller.clientHeight && scroller.scrollWidth <= scroller.clientWidth;
  };
  if (fits(MAIN_CARD.most)) return;
  let [low, high] = [MAIN_CARD.least, MAIN_CARD.most];
  if (!fits(low)) return;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid;
  }
  fits(low);
}

/**
 * Keep the layout in `scroller` fitted: once the board is laid out, and again whenever the space
 * it has changes (the window, a phone turned, the head above it or the hand below it growing),
 * before the browser paints. `s` is the seat's state eleusis.js keeps between draws (one observer,
 * moved to each new scroller; `s.pinned`: the newest card is kept in sight when it must scroll).
 */
export function keepFitted(s, scroller) {
  s.fitting ??= new ResizeObserver((seen) => {
    for (const { target } of seen) {
      fitLayout(target);
      if (s.pinned) target.scrollTop = target.scrollHeight;
    }
  });
  s.fitting.disconnect();
  s.fitting.observe(scroller);
}
