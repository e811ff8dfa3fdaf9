"""Dropout."""
import numpy

from kusari.array import backend
from kusari.array import configuration
from kusari.array import cuda
from kusari.autograd import function_node
from kusari.autograd.functions.activation._grad_nodes import ScaleGrad
from kusari.autograd.functions.noise._arguments import check_ratio
from kusari.autograd.functions.noise._arguments import reject_removed
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_array
from kusari.autograd.variable import as_variable


class Dropout(function_node.FunctionNode):
    """y = x * mask, where the mask holds 1 / (1 - ratio) with probability
    1 - ratio and 0 elsewhere (drawn unless given). Linear in x: the
    gradient is the same product, differentiable to any order."""

    def __init__(self, ratio, mask=None):
        self.ratio = ratio
        self.mask = mask

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        if self.mask is not None:
            mask = type_check.make_variable(self.mask, 'mask')
            type_check.expect(mask.shape == x_type.shape,
                              mask.dtype.kind == 'f')

    def _scale(self, x):
        return x.dtype.type(1.0 / (1.0 - self.ratio))

    def forward_cpu(self, inputs):
        x, = inputs
        if self.mask is None:
            keep = numpy.random.random_sample(x.shape) >= self.ratio
            self.mask = numpy.multiply(keep, self._scale(x),
                                       out=numpy.empty_like(x))
        return numpy.multiply(x, self.mask, out=numpy.empty_like(x)),

    def forward_gpu(self, inputs):
        x, = inputs
        if self.mask is not None:
            return cuda.elementwise(
                'T x, M mask', 'T y', 'y = x * (T)mask',
                'kusari_dropout_given_mask')(x, self.mask),
        xp = backend.get_array_module(x)
        uniform = xp.random.rand(*x.shape, dtype=numpy.float32)
        self.mask, y = cuda.elementwise(
            'T x, float32 uniform, float32 ratio, T scale', 'T mask, T y',
            'mask = uniform >= ratio ? scale : (T)0; y = x * mask',
            'kusari_dropout_fwd')(x, uniform, self.ratio, self._scale(x))
        return y,

    def backward(self, indexes, grad_outputs):
        return ScaleGrad(self.mask).apply(grad_outputs)


def dropout(x, ratio=.5, *, mask=None, return_mask=False, **kwargs):
    """Drops elements of x at random, scaling the others to keep the mean.

    In training (``config.train``) each element is zeroed with probability
    ``ratio`` and the others are multiplied by ``1 / (1 - ratio)``:
    :math:`y = x \\cdot m`. In testing x passes unchanged.

    Args:
        x: Variable or array, float.
        ratio (float): the probability of dropping, in [0, 1).
        mask: an array of x's shape holding the scaled mask ``m`` to use
            instead of drawing one (say, from an earlier call with
            ``return_mask=True``); then the output is deterministic.
        return_mask (bool): also return the mask used (None in testing).

    Returns:
        Variable of x's shape and dtype, or ``(y, mask)`` if
        ``return_mask``.
    """
    reject_removed('dropout', kwargs)
    ratio = check_ratio('dropout', ratio)
    if not configuration.config.train:
        y = as_variable(x)
        return (y, None) if return_mask else y
    node = Dropout(ratio, None if mask is None else as_array(mask))
    y, = node.apply((x,))
    return (y, node.mask) if return_mask else y
