"""Averaging a model's gradients while its backward pass runs, as
PyTorch's DistributedDataParallel does.

Each parameter's averaging starts (nonblocking) from a hook the backward
pass calls as soon as the parameter's gradient is final, so that the
gradients of the last layers travel while the first layers' backward
still computes; the optimizer waits for them all before its update.
"""
import weakref

import numpy

from kusari.array import backend

CALL = 'multi_node_mean_grad'


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


class BackwardOverlap:
    """Averages the gradients of ``link``'s initialized parameters over
    the ranks of ``communicator``, one nonblocking reduction per
    parameter, each started as soon as its gradient is final in backward.

    Reductions start in one fixed order on every rank (the reverse of
    ``link.params()``, about the order backward finishes them): a
    gradient final before those of the parameters ahead of it waits for
    them. What backward did not start, :meth:`finish` starts (a parameter
    without a gradient takes part with zeros, as with ``zero_fill``).
    Where backward ran twice before :meth:`finish` (gradients accumulated
    over several passes), the reductions started are dropped and the
    gradients averaged once, blocking, as the optimizer does without
    overlap. Sums are those of :meth:`multi_node_mean_grad`, in the same
    dtype.

    Args:
        communicator: A communicator with ``_start_grad_mean`` (those of
            :func:`create_communicator`).
        link: The model; its parameters must agree across the ranks.
    """

    def __init__(self, communicator, link):
        self._communicator = communicator
        self._link = link
        self._params = [param for param in link.params(include_uninit=False)
                        ][::-1]
        self._dtype = communicator._grad_dtype(
            [param.dtype for param in self._params])
        self._hooks = []
        for index, param in enumerate(self._params):
            hook = _Hook(self, index)
            hook.handle = param.register_post_accumulate_grad_hook(hook)
            self._hooks.append(hook)
        self._reset()

    def _reset(self):
        self._final = [False] * len(self._params)
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
        while len(self._started) < len(self._params) and \
                self._final[len(self._started)]:
            self._start(len(self._started))

    def _start(self, index):
        """Start averaging the gradient of parameter ``index``."""
        param = self._params[index]
        grad = param.grad
        if grad is None:
            with backend.get_device_from_array(param.array):
                grad = backend.get_array_module(param.array).zeros_like(
                    param.array)
            param.grad = grad
        xp = self._communicator._buffer_module([grad])
        if xp is numpy:
            grad = backend.CpuDevice().send(grad)
        target = xp.empty(grad.shape, self._dtype)
        self._started.append((param, target, self._communicator
                              ._start_grad_mean(target, CALL, grad)))

    def _start_rest(self):
        while len(self._started) < len(self._params):
            self._start(len(self._started))

    def _drop(self):
        """Complete what was started (and so the rest, as every rank
        does), keeping none of it."""
        if self._started:
            self._start_rest()
        for _, _, wait in self._started:
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
            for param, mean, wait in self._started:
                wait()
                array = param.array
                if mean.dtype != array.dtype or \
                        type(mean) is not type(array):
                    mean = backend.get_device_from_array(array).send(
                        mean).astype(array.dtype, copy=False)
                param.grad = mean
        finally:
            self._reset()
