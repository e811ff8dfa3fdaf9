"""Learnable bias added along axes."""
from kusari.autograd.functions.math import bias as bias_function
from kusari.autograd.variable import Parameter
from kusari.links import link
from kusari.links.layers.connection import _layer


class Bias(link.Link):
    """Adds a bias ``b`` broadcast along ``axis`` (see
    :func:`~kusari.autograd.functions.bias`).

    Built with ``shape`` it is called with one input ``x`` and adds its
    learnt parameter ``b``; built without, it is called with ``(x, y)``
    and adds ``y`` (it has no parameter to learn). Another number of
    inputs raises :class:`~kusari.links.layers.connection._layer.
    InputCountError` (a ValueError and, as in Chainer, an AssertionError).

    Args:
        axis (int): The first axis of x that b covers.
        shape (tuple of ints or None): The shape of the parameter ``b``
            (zeros); None gives the link no parameter.
    """

    def __init__(self, axis=1, shape=None):
        super().__init__()
        if shape is not None:
            with self.init_scope():
                self.b = Parameter(0, shape)
        self.axis = axis

    def forward(self, *xs):
        """``x + b``, or ``x + y`` for a link built without shape."""
        x, b = _layer.operands(self, xs, 'b', 'shape')
        return bias_function.bias(x, b, self.axis)
