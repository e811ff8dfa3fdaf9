"""Averaging a model's gradients while its backward pass runs, as
PyTorch's DistributedDataParallel does.

The parameters are grouped into buckets of whole layers; a bucket's
averaging starts (nonblocking) from the hook the backward pass calls as
soon as the last of its gradients is final, so that the gradients of the
last layers travel while the first layers' backward still computes; the
optimizer waits for them all before its update.
"""
import weakref

from kusari.distributed.communicators import _packing

CALL = 'multi_node_mean_grad'
# Elements a bucket holds at least (but its last layer's): enough that a
# reduction's fixed cost (its round trips between the ranks, each a wait
# for the slowest) is small next to its transfer, few enough that the
# last layers' bucket starts well before backward ends.
BUCKET_ELEMENTS = 2 ** 19


class _Hook:
    """The post-accumulate hook of one parameter: it holds its overlap
    weakly, and unregisters itself once that is gone."""

    def __init__(self, overlap, index):
        self._overlap = weakref.ref(overlap)
        self._index = index
        self.handle = None

    def __call__(self, param):
        overlap = self._overlap()
        if overlap is None:
            self.handle.remove()
        else:
            overlap._ready(self._index)


def _buckets(link):
    """The initialized parameters of ``link`` in the order backward about
    finishes them (the reverse of ``namedparams``), in buckets of whole
    layers (the parameters of one link) of ``BUCKET_ELEMENTS`` or more."""
    buckets, bucket, size, layer = [], [], 0, None
    for path, param in reversed(list(link.namedparams(include_uninit=False))):
        owner = path.rpartition('/')[0]
        if owner != layer and size >= BUCKET_ELEMENTS:
            buckets.append(bucket)
            bucket, size = [], 0
        layer = owner
        bucket.append(param)
        size += param.size
    return buckets + [bucket] if bucket else buckets


class BackwardOverlap:
    """Averages the gradients of ``link``'s initialized parameters over
    the ranks of ``communicator`` during backward: one nonblocking
    reduction per bucket of layers, started as soon as its gradients are
    final.

    Buckets start in one fixed order on every rank (about the order
    backward finishes them): a bucket final before those ahead of it
    waits for them. What backward did not start, :meth:`finish` starts (a
    parameter without a gradient takes part with zeros, as with
    ``zero_fill``). Where backward ran twice before :meth:`finish`
    (gradients accumulated over several passes), the reductions started
    are dropped and the gradients averaged once, blocking, as the
    optimizer does without overlap. The means are those of
    :meth:`multi_node_mean_grad`, written where it writes them (see
    :func:`._packing.writable_grads`).

    Args:
        communicator: A communicator with ``_start_grad_mean`` (those of
            :func:`create_communicator`).
        link: The model; its parameters must agree across the ranks.
    """

    def __init__(self, communicator, link):
        self._communicator = communicator
        self._link = link
        self._buckets = _buckets(link)
        params = [param for bucket in self._buckets for param in bucket]
        self._dtype = communicator._grad_dtype(
            [param.dtype for param in params])
        self._bucket_of = [index for index, bucket in enumerate(self._buckets)
                           for _ in bucket]
        # Each bucket's packed buffer, kept from step to step.
        self._buffers = [None] * len(self._buckets)
        self._hooks = []
        for index, param in enumerate(params):
            hook = _Hook(self, index)
            hook.handle = param.register_post_accumulate_grad_hook(hook)
            self._hooks.append(hook)
        self._reset()

    def _reset(self):
        self._waiting = [len(bucket) for bucket in self._buckets]
        self._final = [False] * len(self._hooks)
        self._started = []
        self._accumulated = False

    def close(self):
        """Unregister the hooks (after dropping what is in flight)."""
        self._drop()
        for hook in self._hooks:
            hook.handle.remove()
        self._hooks = []

    def _ready(self, index):
        if self._final[index]:
            self._accumulated = True
            return
        self._final[index] = True
        self._waiting[self._bucket_of[index]] -= 1
        while len(self._started) < len(self._buckets) and \
                not self._waiting[len(self._started)]:
            self._start(len(self._started))

    def _start(self, index):
        """Start averaging the gradients of bucket ``index``."""
        grads = [_packing.grad_or_zeros(param)
                 for param in self._buckets[index]]
        self._buffers[index] = buffer = _packing.reuse(
            self._buffers[index], self._communicator._buffer_module(grads),
            sum(g.size for g in grads), self._dtype)
        self._started.append(
            self._communicator._start_grad_mean(buffer, CALL, grads))

    def _start_rest(self):
        while len(self._started) < len(self._buckets):
            self._start(len(self._started))

    def _drop(self):
        """Complete what was started (and so the rest, as every rank
        does), keeping none of it."""
        if self._started:
            self._start_rest()
        for wait in self._started:
            wait()
        self._reset()

    def finish(self):
        """Wait for every parameter's mean and make it its gradient."""
        if self._accumulated:
            self._drop()
            self._communicator.multi_node_mean_grad(self._link,
                                                    zero_fill=True)
            return
        self._start_rest()
        try:
            grads = iter(_packing.writable_grads(
                [param for bucket in self._buckets for param in bucket]))
            for bucket, wait in zip(self._buckets, self._started):
                wait([next(grads) for _ in bucket])
        finally:
            self._reset()
