"""Randomized leaky rectified linear unit."""
from kusari.array import backend
from kusari.array import configuration
from kusari.autograd import function_node
from kusari.autograd.functions.activation._grad_nodes import ScaleGrad
from kusari.autograd.functions.math.exponential import check_float_input
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_array


class RReLU(function_node.FunctionNode):
    """y = x where x >= 0, else r x, with slopes r drawn from U(l, u) in
    training and set to (l + u) / 2 in testing."""

    def __init__(self, lower, upper, r):
        self.lower = lower
        self.upper = upper
        self.r = r

    def check_type_forward(self, in_types):
        check_float_input(in_types)
        if self.r is not None and configuration.config.train:
            x_type, = in_types
            type_check.expect(x_type.dtype == self.r.dtype,
                              x_type.shape == self.r.shape)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        if not configuration.config.train:
            self.r = xp.full(x.shape, (self.lower + self.upper) / 2, x.dtype)
        elif self.r is None:
            self.r = xp.random.uniform(
                self.lower, self.upper, x.shape).astype(x.dtype, copy=False)
        self.retain_outputs((0,))
        y = xp.multiply(x, self.r, out=xp.empty_like(x))
        xp.copyto(y, x, where=x >= 0)
        return y,

    def backward(self, indexes, grad_outputs):
        y = self.get_retained_outputs()[0].array
        xp = backend.get_array_module(y)
        slopes = xp.where(y >= 0, y.dtype.type(1), self.r)
        return ScaleGrad(slopes).apply(grad_outputs)


@type_check.checks_inputs
def rrelu(x, l=1. / 8, u=1. / 3, *, r=None, return_r=False):  # NOQA: E741
    """Randomized leaky rectified linear unit: :math:`y = \\max(x, r x)`.

    In training (``config.train``) each element gets its own slope
    :math:`r \\sim U(l, u)`, or the given ``r``; in testing every slope is
    :math:`(l + u) / 2` and ``r`` is ignored.

    Args:
        x: Variable or array, float.
        l (float): the lower bound of the slopes, in [0, 1).
        u (float): the upper bound of the slopes, in (l, 1).
        r: an array of slopes of x's shape and dtype to reuse (say, from
            an earlier call with ``return_r=True``), or None to draw them.
        return_r (bool): also return the slopes used.

    Returns:
        The output Variable, or ``(y, r)`` if ``return_r``.
    """
    if not 0 <= l < 1:
        raise ValueError(f'rrelu: l must be in [0, 1), got {l}')
    if not 0 <= u < 1:
        raise ValueError(f'rrelu: u must be in [0, 1), got {u}')
    if not l < u:
        raise ValueError(f'rrelu: l must be less than u, got l={l}, u={u}')
    node = RReLU(l, u, None if r is None else as_array(r))
    y, = node.apply((x,))
    if return_r:
        return y, node.r
    return y
