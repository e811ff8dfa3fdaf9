"""Change the dtype."""
import numpy

from kusari.autograd import function_node
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_variable


class Cast(function_node.FunctionNode):
    """Convert an array to another dtype; the gradient converts back."""

    def __init__(self, typ):
        self.type = numpy.dtype(typ)

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        self._in_type = x.dtype
        return x.astype(self.type, copy=False),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return cast(gy, self._in_type),


@type_check.checks_inputs
def cast(x, typ):
    """Cast ``x`` to dtype ``typ``.

    Args:
        x: Variable or array.
        typ: a dtype or anything ``numpy.dtype`` accepts.

    Returns:
        Variable of dtype ``typ``; ``x`` itself (as a Variable) if it
        already has that dtype.
    """
    if x.dtype == numpy.dtype(typ):
        return as_variable(x)
    y, = Cast(typ).apply((x,))
    return y
