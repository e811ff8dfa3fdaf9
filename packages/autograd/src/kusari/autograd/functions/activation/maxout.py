"""Maxout: the maximum over groups of channels."""

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.activation import _axis
from kusari.autograd.functions.array import _axes
from kusari.autograd.utils import type_check


def _pooled_shape(shape, axis, pool_size):
    """``shape`` with ``axis`` split into (groups, pool_size)."""
    return (shape[:axis] + (shape[axis] // pool_size, pool_size) +
            shape[axis + 1:])


class Maxout(_axis.AxisFunction):
    """y = max over each group of ``pool_size`` consecutive elements along
    ``axis``; the gradient goes to every maximum of its group."""

    def __init__(self, pool_size, axis):
        super().__init__(axis)
        self.pool_size = pool_size

    def check_type_forward(self, in_types):
        super().check_type_forward(in_types)
        x_type, = in_types
        type_check.expect(x_type.shape[self.axis] % self.pool_size == 0)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        axis = self.axis % x.ndim
        pooled = x.reshape(_pooled_shape(x.shape, axis, self.pool_size))
        return pooled.max(axis=axis + 1),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array
        y = self.get_retained_outputs()[0].array
        axis = self.axis % x.ndim
        xp = backend.get_array_module(x)
        pooled = x.reshape(_pooled_shape(x.shape, axis, self.pool_size))
        is_max = pooled == xp.expand_dims(y, axis + 1)
        return Spread(is_max, axis + 1).apply(grad_outputs)


class Spread(function_node.FunctionNode):
    """Copy each element of gy to the maxima of its group (``mask``, of the
    pooled shape, along ``pool_axis``); the adjoint of :class:`Gather`."""

    def __init__(self, mask, pool_axis):
        self.mask = mask
        self.pool_axis = pool_axis

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = self.mask * xp.expand_dims(gy, self.pool_axis)
        shape = self.mask.shape
        axis = self.pool_axis
        return gx.reshape(shape[:axis - 1] + (shape[axis - 1] * shape[axis],)
                          + shape[axis + 1:]),

    def backward(self, indexes, grad_outputs):
        return Gather(self.mask, self.pool_axis).apply(grad_outputs)


class Gather(function_node.FunctionNode):
    """Sum each group's elements at the maxima of the group (``mask``)."""

    def __init__(self, mask, pool_axis):
        self.mask = mask
        self.pool_axis = pool_axis

    def forward(self, inputs):
        ggx, = inputs
        selected = ggx.reshape(self.mask.shape) * self.mask
        return selected.sum(axis=self.pool_axis),

    def backward(self, indexes, grad_outputs):
        return Spread(self.mask, self.pool_axis).apply(grad_outputs)


def maxout(x, pool_size, axis=1):
    """Maxout: the maximum of each group of ``pool_size`` consecutive
    elements along ``axis`` (Goodfellow et al., 2013).

    Args:
        x: Variable or array, float; ``x.shape[axis]`` must be a multiple
            of ``pool_size``.
        pool_size (int): the size of each group, positive.
        axis (int): the axis of the groups.

    Returns:
        Variable of x's dtype whose ``axis`` is ``pool_size`` times shorter.
    """
    pool_size = _axes.check_positive('maxout', 'pool_size', pool_size)
    axis = _axis.check_int_axis('maxout', axis)
    return Maxout(pool_size, axis).apply((x,))[0]
