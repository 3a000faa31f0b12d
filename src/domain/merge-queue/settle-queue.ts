// After any result: parked batches whose parents have all passed (or merged) take their failure
// as their own, and bisections whose sub-batches are all resolved end. One step can enable the
// next (a culprit found ends a bisection, which ends the bisection it is part of), so repeat.
import { endOneResolvedBisection } from './bisection.ts';
import { handleFailure, hasUnresolvedParent } from './batch-failure.ts';
import type { TransitionDraft } from './transition-draft.ts';

export function settleQueue(draft: TransitionDraft): void {
  for (;;) {
    const unparked = draft.unfinishedBatches().find((batch) => batch.phase === 'parked' && !hasUnresolvedParent(draft, batch));
    if (unparked) handleFailure(draft, unparked.id);
    else if (!endOneResolvedBisection(draft)) return;
  }
}
