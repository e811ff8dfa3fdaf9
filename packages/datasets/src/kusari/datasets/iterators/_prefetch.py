"""Iterators that load the next batches in the background.

The iterator runs its epoch state ahead of what the user has consumed: it
submits the indices of up to ``depth`` batches to a loader (threads or
processes) and hands them out in order. The state the user sees, and that
:meth:`serialize` saves, is that of the batches handed out, so prefetching
never shows in the epoch bookkeeping. Nor does it in the random numbers:
the batch that ends an epoch, where the order sampler is called (and may
draw from ``numpy.random``), is computed only when asked for.

A loader has ``submit(indices) -> handle``, ``result(handle) -> list``,
``cancel(handle)`` and ``close()``; loaders split a batch into chunks, one
per worker, with :func:`split_evenly`.
"""
import collections

import numpy

from kusari.datasets.iterators import _epoch


def split_evenly(indices, n_parts):
    """Split a list into at most ``n_parts`` contiguous, non-empty parts
    whose lengths differ by at most one."""
    n_parts = min(n_parts, len(indices))
    size, extra = divmod(len(indices), n_parts)
    parts = []
    start = 0
    for part in range(n_parts):
        end = start + size + (part < extra)
        parts.append(indices[start:end])
        start = end
    return parts


class PrefetchIterator(_epoch.EpochIterator):
    """An epoch iterator that keeps ``depth`` batches loading ahead."""

    def __init__(self, dataset, batch_size, repeat, shuffle, order_sampler,
                 loader, depth):
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler)
        self._loader = loader
        self._depth = depth
        # (state after the batch, loader handle), oldest first.
        self._in_flight = collections.deque()

    def __next__(self):
        try:
            self._submit_ahead(required=True)
            if not self._in_flight:
                self._stop()
            state, handle = self._in_flight[0]
            batch = self._loader.result(handle)
        except StopIteration:
            raise
        except BaseException:
            # The iterator stays where it was; a retry submits afresh.
            self._cancel_in_flight()
            raise
        self._in_flight.popleft()
        self._commit(state)
        # The next batches load while the caller uses this one.
        self._submit_ahead(required=False)
        return batch

    def _submit_ahead(self, required):
        """Submit batches until ``depth`` are in flight. Errors (from the
        order sampler, or starting workers) are raised only if ``required``
        and nothing is in flight: otherwise they recur, and are raised,
        when the batch that met them is the one asked for."""
        state = self._in_flight[-1][0] if self._in_flight else self._state
        while len(self._in_flight) < self._depth:
            if (self._in_flight or not required) \
                    and self._draws_next_order(state):
                # The order sampler may draw from numpy.random: it is
                # called only for the batch asked for, so that it draws at
                # the same moment as in SerialIterator, and a snapshot
                # taken in between (which saves numpy.random's state with
                # the position of the batches handed out) resumes exactly.
                return
            try:
                step = self._next_step(state)
                if step is None:
                    return
                state, indices = step
                self._in_flight.append((state, self._loader.submit(indices)))
            except Exception:
                if required and not self._in_flight:
                    raise
                return

    def _draws_next_order(self, state):
        """Whether the batch after ``state`` ends an epoch, where the order
        sampler is called."""
        return (state.order is not None
                and state.current_position + self.batch_size
                >= len(state.order))

    def _cancel_in_flight(self):
        while self._in_flight:
            self._loader.cancel(self._in_flight.popleft()[1])

    def reset(self):
        self._cancel_in_flight()
        super().reset()

    def serialize(self, serializer):
        before = self._state
        order_before = None if before.order is None else before.order.copy()
        super().serialize(serializer)
        # Saving leaves the state as it was, and the batches in flight stay
        # valid (re-submitting them would draw new orders from the sampler).
        # Loading a different state invalidates them.
        after = self._state
        if after[:3] != before[:3] or not _same_order(order_before,
                                                       after.order):
            self._cancel_in_flight()

    def finalize(self):
        """Cancel the batches in flight and stop the workers; the next
        batch asked for starts them again."""
        self._cancel_in_flight()
        self._loader.close()


def _same_order(a, b):
    if a is None or b is None:
        return a is b
    return numpy.array_equal(a, b)
