// The metrics page's term charts as plain numbers: one horizontal bar per term, longest first, sized to
// the width available, with no DOM, so they can be tested in Node and drawn by site-metrics.js.

export const ROW = 28;
export const BAR = 18;
export const PAD = { top: 4, right: 44, bottom: 4 };
/** About how wide one character of a label is, to cut labels that would not fit. */
const CHAR = 7.2;

/** A label cut to `room` pixels, with an ellipsis when cut. */
export function fitLabel(term, room) {
  const max = Math.max(3, Math.floor(room / CHAR));
  return term.length <= max ? term : `${term.slice(0, max - 1)}…`;
}

/**
 * Bars for terms ({term, count, averageHits}) in a chart `width` pixels wide: labels take up to two
 * fifths of it (at most 180 px), bars the rest but room for the count at their end.
 */
export function termChart(terms, width) {
  const labelWidth = Math.min(180, Math.round(width * 0.4));
  const left = labelWidth + 8;
  const room = Math.max(10, width - left - PAD.right);
  const max = Math.max(1, ...terms.map((t) => t.count));
  const bars = terms.map((t, i) => {
    const y = PAD.top + i * ROW;
    const barWidth = Math.max(2, (t.count / max) * room);
    return {
      term: t.term,
      label: fitLabel(t.term, labelWidth),
      count: t.count,
      averageHits: t.averageHits,
      x: left,
      y: y + (ROW - BAR) / 2,
      width: barWidth,
      height: BAR,
      labelX: labelWidth,
      valueX: left + barWidth + 6,
      textY: y + ROW / 2 + 4,
    };
  });
  return {
    width,
    height: PAD.top + PAD.bottom + Math.max(1, terms.length) * ROW,
    labelWidth,
    bars,
    empty: terms.length === 0,
  };
}
