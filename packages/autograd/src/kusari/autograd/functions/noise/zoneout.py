"""Zoneout: keeping some units of a recurrent state at random."""
from kusari.array import backend
from kusari.array import configuration
from kusari.autograd import function_node
from kusari.autograd.functions.activation._grad_nodes import ScaleGrad
from kusari.autograd.functions.noise._arguments import expect_float_pair
from kusari.autograd.functions.noise._arguments import reject_removed
from kusari.autograd.variable import as_variable


class Zoneout(function_node.FunctionNode):
    """y = h where a draw keeps the previous state (probability ratio),
    else x; the gradient goes to the input chosen at each element."""

    def __init__(self, ratio):
        self.ratio = ratio

    def check_type_forward(self, in_types):
        expect_float_pair(in_types, ('h', 'x'))

    def forward(self, inputs):
        h, x = inputs
        xp = backend.get_array_module(x)
        self.take_x = xp.random.random_sample(x.shape) >= self.ratio
        return xp.where(self.take_x, x, h),

    def backward(self, indexes, grad_outputs):
        masks = (~self.take_x, self.take_x)
        return tuple([ScaleGrad(masks[i]).apply(grad_outputs)[0]
                      for i in indexes])


def zoneout(h, x, ratio=.5, **kwargs):
    """Zoneout (Krueger et al., 2016): in training (``config.train``) each
    unit keeps its previous state ``h`` with probability ``ratio`` and
    takes the new state ``x`` otherwise; in testing the output is x.

    Args:
        h: Variable or array, float, the previous state.
        x: Variable or array of h's shape and dtype, the new state.
        ratio (float): the probability of keeping h, in [0, 1].

    Returns:
        Variable of x's shape and dtype.
    """
    reject_removed('zoneout', kwargs)
    if not 0.0 <= ratio <= 1.0:
        raise ValueError(f'zoneout: ratio must be in [0, 1], got {ratio}')
    if not configuration.config.train:
        return as_variable(x)
    y, = Zoneout(ratio).apply((h, x))
    return y
