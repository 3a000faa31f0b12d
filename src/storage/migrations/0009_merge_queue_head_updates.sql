-- Checks in place (DESIGN.md §10): the merge queue itself updates a queued pull request's head
-- with its base (the platform's update-branch). Until the executor has read the head that update
-- made, a move of the head from `from` is presumed its own, not a push that dequeues the pull
-- request. Kept on the entry, not on a batch, so it outlives a batch aborted in between (a reset).
-- JSON text: {"from": head asked from, "onto": base head merged in, "askedAt": ms or null until
-- the platform accepted it}. Null: no update of the queue's own in progress.
ALTER TABLE merge_queue_entries ADD COLUMN head_update text;
