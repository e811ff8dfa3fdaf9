"""Gaussian sampling with the reparameterization trick."""
import numpy

from kusari.array import backend
from kusari.array import cuda
from kusari.autograd import function_node
from kusari.autograd.functions.math.exponential import exp
from kusari.autograd.functions.noise import _arguments
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_array


def standard_normal(xp, shape, dtype):
    """Draws of N(0, 1) of ``shape``, as ``dtype`` (drawn in float32 for
    float16, which the generators do not produce)."""
    if xp is numpy:
        return numpy.asarray(numpy.random.standard_normal(shape)).astype(
            dtype, copy=False)
    draw_dtype = numpy.float32 if dtype == numpy.float16 else dtype
    return xp.random.standard_normal(shape, dtype=draw_dtype).astype(
        dtype, copy=False)


class Gaussian(function_node.FunctionNode):
    """y = mean + exp(ln_var / 2) * eps with eps ~ N(0, 1) (drawn unless
    given); gradients flow to mean and ln_var, to any order."""

    def __init__(self, eps=None):
        self.eps = eps

    def check_type_forward(self, in_types):
        mean_type = _arguments.expect_float_pair(in_types, ('mean', 'ln_var'))
        if self.eps is not None:
            eps = type_check.make_variable(self.eps, 'eps')
            type_check.expect(eps.dtype.kind == 'f',
                              eps.shape == mean_type.shape)

    def forward_cpu(self, inputs):
        mean, ln_var = inputs
        self.retain_inputs((1,))
        self._draw(mean)
        y = numpy.multiply(ln_var, ln_var.dtype.type(0.5),
                           out=numpy.empty_like(ln_var))
        numpy.exp(y, out=y)
        y *= self.eps
        y += mean
        return y,

    def forward_gpu(self, inputs):
        mean, ln_var = inputs
        self.retain_inputs((1,))
        self._draw(mean)
        return cuda.elementwise(
            'T mean, T ln_var, E eps', 'T y',
            'y = mean + exp(ln_var * (T)0.5) * (T)eps',
            'kusari_gaussian_fwd')(mean, ln_var, self.eps),

    def _draw(self, mean):
        if self.eps is None:
            self.eps = standard_normal(backend.get_array_module(mean),
                                       mean.shape, mean.dtype)

    def backward(self, indexes, grad_outputs):
        ln_var, = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(gy)
        if 1 in indexes:
            eps = self.eps.astype(ln_var.dtype, copy=False)
            ret.append(gy * exp(ln_var * 0.5) * (eps * eps.dtype.type(0.5)))
        return ret


@type_check.checks_inputs
def gaussian(mean, ln_var, *, eps=None, return_eps=False):
    """A draw from :math:`N(\\mu, \\sigma^2)`, differentiable w.r.t. its
    parameters: :math:`y = \\mu + \\exp(\\ln\\sigma^2 / 2) \\epsilon` with
    :math:`\\epsilon \\sim N(0, 1)` (the reparameterization trick). It
    draws in training and testing alike.

    Args:
        mean: Variable or array, float, the mean :math:`\\mu`.
        ln_var: Variable or array of mean's shape and dtype, the log
            variance :math:`\\ln\\sigma^2`.
        eps: an array of mean's shape to use as :math:`\\epsilon` instead
            of drawing (say, from an earlier call with
            ``return_eps=True``); then the output is deterministic.
        return_eps (bool): also return :math:`\\epsilon`.

    Returns:
        Variable of mean's shape and dtype, or ``(y, eps)`` if
        ``return_eps``.
    """
    node = Gaussian(None if eps is None else as_array(eps))
    y, = node.apply((mean, ln_var))
    return (y, node.eps) if return_eps else y
