"""Learnable scale (and optional bias) broadcast along axes."""
from kusari.autograd.functions.math import scale as scale_function
from kusari.autograd.variable import Parameter
from kusari.links import link
from kusari.links.layers.connection import _layer
from kusari.links.layers.connection import bias


class Scale(link.Chain):
    """Multiplies by ``W`` broadcast along ``axis`` (see
    :func:`~kusari.autograd.functions.scale`), then optionally adds a
    learnt bias.

    Built with ``W_shape`` it is called with one input ``x`` and uses its
    learnt parameter ``W``; built without, it is called with ``(x, y)``
    and multiplies by ``y`` (another number of inputs raises
    ``InputCountError``, as :class:`Bias` does).

    Args:
        axis (int): The first axis of x that W covers.
        W_shape (tuple of ints or None): The shape of the parameter ``W``
            (ones); None gives the link no ``W``.
        bias_term (bool): Add a learnt bias (a :class:`Bias` child link
            named ``bias``) of shape ``W_shape``, or ``bias_shape`` when
            there is no ``W``.
        bias_shape (tuple of ints): The bias shape when ``W_shape`` is
            None and ``bias_term`` is set.
    """

    def __init__(self, axis=1, W_shape=None, bias_term=False,
                 bias_shape=None):
        if bias_term and W_shape is None and bias_shape is None:
            raise ValueError(
                'Scale: bias_shape must be given when bias_term is set and '
                'W_shape is None')
        super().__init__()
        self.axis = axis
        with self.init_scope():
            if W_shape is not None:
                self.W = Parameter(1, W_shape)
            if bias_term:
                self.bias = bias.Bias(
                    axis, W_shape if W_shape is not None else bias_shape)

    def forward(self, *xs):
        """``x W (+ b)``, or ``x y (+ b)`` for a link built without
        ``W_shape``."""
        x, W = _layer.operands(self, xs, 'W', 'W_shape')
        y = scale_function.scale(x, W, self.axis)
        if 'bias' in self._children:
            y = self.bias(y)
        return y
