"""Learnable bias added along axes."""
from kusari.autograd.functions.math import bias as bias_function
from kusari.autograd.variable import Parameter
from kusari.links import link


class Bias(link.Link):
    """Adds a bias ``b`` broadcast along ``axis`` (see
    :func:`~kusari.autograd.functions.bias`).

    Called with one input ``x`` it adds its learnt parameter ``b``; called
    with ``(x, y)`` it adds ``y`` instead (and has no parameter to learn).

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
        """``x + b``, or ``x + y`` for two inputs ``(x, y)``."""
        if len(xs) == 2:
            return bias_function.bias(xs[0], xs[1], self.axis)
        if len(xs) != 1:
            raise TypeError(f'{self._describe()}: expected x or (x, y); got '
                            f'{len(xs)} inputs')
        if 'b' not in self._params:
            raise ValueError(
                f'{self._describe()}: built without shape, it has no '
                f'parameter b; call it with (x, y)')
        return bias_function.bias(xs[0], self.b, self.axis)
