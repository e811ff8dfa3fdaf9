"""Diagonals of an array."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.utils import type_check


class Diagonal(function_node.FunctionNode):
    """The diagonal of two axes, as ``numpy.diagonal`` (a read-only view);
    the gradient writes it back into zeros."""

    def __init__(self, offset, axis1, axis2):
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].ndim >= 2)

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        return x.diagonal(self.offset, self.axis1, self.axis2),

    def backward(self, indexes, grad_outputs):
        return DiagonalGrad(self._in_shape, self.offset, self.axis1,
                            self.axis2).apply(grad_outputs)


class DiagonalGrad(function_node.FunctionNode):
    """Zeros of a shape with a diagonal set to the input."""

    def __init__(self, shape, offset, axis1, axis2):
        self.shape = shape
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self.shape, gy.dtype)
        view = xp.moveaxis(gx, (self.axis1, self.axis2), (-2, -1))
        steps = xp.arange(gy.shape[-1])
        view[..., steps + max(-self.offset, 0),
             steps + max(self.offset, 0)] = gy
        return gx,

    def backward(self, indexes, grad_outputs):
        ggx, = grad_outputs
        return diagonal(ggx, self.offset, self.axis1, self.axis2),


@type_check.checks_inputs
def diagonal(x, offset=0, axis1=0, axis2=1):
    """The diagonal of ``x`` over ``axis1`` and ``axis2``, as
    ``numpy.diagonal``.

    Args:
        x: Variable or array of two or more axes.
        offset: the diagonal's offset from the main one (positive: above).
        axis1, axis2: the two distinct axes the diagonal runs over.

    Returns:
        Variable: the other axes, then one of the diagonal's length.
    """
    offset = _axes.check_int('diagonal', 'offset', offset)
    if x.ndim < 2:
        raise type_check.InvalidType(
            'x.ndim >= 2', f'x.ndim = {x.ndim}',
            f'diagonal: x must have at least 2 axes; got shape {x.shape}')
    axis1 = _axes.normalize_axis('diagonal', 'axis1', axis1, x.ndim)
    axis2 = _axes.normalize_axis('diagonal', 'axis2', axis2, x.ndim)
    if axis1 == axis2:
        raise ValueError(f'diagonal: axis1 and axis2 must differ; both '
                         f'are axis {axis1}')
    y, = Diagonal(offset, axis1, axis2).apply((x,))
    return y
