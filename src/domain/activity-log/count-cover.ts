// How a window is read from event counts kept per slot of a few widths (migration 0030): the whole
// slots of the widest width inside the window, then at each end the whole slots of the next
// width that the wider ones leave, and so on; what no whole slot covers (under the narrowest
// width, at either end) is read from the events themselves. Every instant of the window is
// covered exactly once. Pure arithmetic on epoch seconds and milliseconds.
import type { TimeWindow } from './time-window.ts';

/** Whole slots of one width: slot starts in [first, end), epoch seconds. */
export interface SlotRange {
  readonly width: number;
  readonly first: number;
  readonly end: number;
}

export interface CountCover {
  readonly slots: readonly SlotRange[];
  /** The parts of the window left to the events, [from, to) each. */
  readonly edges: readonly TimeWindow[];
}

/** `widths` from widest to narrowest, each a multiple of the next. */
export function coverWindow(window: TimeWindow, widths: readonly number[]): CountCover {
  const fromMs = window.from.getTime();
  const toMs = window.to.getTime();
  const slots: SlotRange[] = [];
  // [inner.first, inner.end): what the wider widths cover so far, in seconds.
  let inner: { first: number; end: number } | undefined;
  for (const width of widths) {
    const first = Math.ceil(fromMs / (width * 1000)) * width;
    const end = Math.floor(toMs / (width * 1000)) * width;
    if (first >= end) continue;
    if (!inner) slots.push({ width, first, end });
    else {
      if (first < inner.first) slots.push({ width, first, end: inner.first });
      if (inner.end < end) slots.push({ width, first: inner.end, end });
    }
    inner = { first, end };
  }
  if (!inner) return { slots, edges: [window] };
  const edges: TimeWindow[] = [];
  if (fromMs < inner.first * 1000) edges.push({ from: window.from, to: new Date(inner.first * 1000) });
  if (inner.end * 1000 < toMs) edges.push({ from: new Date(inner.end * 1000), to: window.to });
  return { slots, edges };
}
