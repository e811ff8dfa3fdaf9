"""The shared shape of losses between two arrays of one shape and dtype."""
from kusari.autograd import function_node
from kusari.autograd.utils import type_check


def check_pair(in_types):
    """Two float inputs ``x0`` and ``x1`` of one dtype and one shape."""
    type_check.argname(in_types, ('x0', 'x1'))
    x0_type, x1_type = in_types
    type_check.expect(x0_type.dtype.kind == 'f',
                      x0_type.dtype == x1_type.dtype,
                      x0_type.shape == x1_type.shape)


class PairwiseLoss(function_node.FunctionNode):
    """A loss of ``x0`` and ``x1``; the gradient of ``x1`` is minus that
    of ``x0``. Subclasses implement ``forward`` and ``grad_x0(gy)``."""

    def check_type_forward(self, in_types):
        check_pair(in_types)

    def backward(self, indexes, grad_outputs):
        gx0 = self.grad_x0(grad_outputs[0])
        return tuple([gx0 if i == 0 else -gx0 for i in indexes])
