"""Fan-in and fan-out of weight shapes, and initializers scaled by them."""
import math

from kusari.array.initializers import initializer


def get_fans(shape):
    """Return ``(fan_in, fan_out)`` of a weight of the given shape.

    The shape is ``(out, in, *kernel)``: ``fan_in = in * prod(kernel)`` and
    ``fan_out = out * prod(kernel)``.
    """
    return _fans(shape, 'get_fans')


def _fans(shape, caller):
    if not isinstance(shape, (tuple, list)) or len(shape) < 2:
        raise ValueError(
            f'{caller}: fans need a shape of at least 2 dimensions '
            f'(out, in, *kernel), got {shape!r}')
    receptive_field = math.prod(shape[2:])
    return shape[1] * receptive_field, shape[0] * receptive_field


class FanScaled(initializer.Initializer):
    """Base of initializers whose width follows from the array's fans.

    The array is filled by ``distribution(scale * sqrt(gain / fan))``, where
    ``fan`` is fan-in, fan-out, or their mean (``'fan_avg'``, for Glorot).
    Subclasses set ``distribution`` (Normal or Uniform) and ``gain``.

    Args:
        scale (float): Multiplier of the width.
        dtype: Data type the filled array must have (None: any float).
        fan_option (str): ``'fan_in'`` or ``'fan_out'``.
        rng: Random generator with ``normal`` and ``uniform`` methods
            (``numpy.random.RandomState`` or ``Generator``, or CuPy's);
            None uses the array module's global one.
    """

    distribution = None
    gain = 1.0
    fan_options = ('fan_in', 'fan_out')

    def __init__(self, scale=1.0, dtype=None, fan_option='fan_in', *,
                 rng=None):
        if fan_option not in self.fan_options:
            raise ValueError(
                f'{type(self).__name__}: fan_option must be one of '
                f'{", ".join(self.fan_options)}, got {fan_option!r}')
        self.scale = scale
        self.fan_option = fan_option
        self.rng = rng
        super().__init__(dtype)

    def __call__(self, array):
        self.check_array(array)
        fan_in, fan_out = _fans(array.shape, type(self).__name__)
        fan = {'fan_in': fan_in, 'fan_out': fan_out,
               'fan_avg': (fan_in + fan_out) / 2}[self.fan_option]
        width = self.scale * math.sqrt(self.gain / fan)
        self.distribution(width, rng=self.rng)(array)


class GlorotScaled(FanScaled):
    """Base of the Glorot (Xavier) initializers: the mean of the fans."""

    fan_options = ('fan_avg',)

    def __init__(self, scale=1.0, dtype=None, *, rng=None):
        super().__init__(scale, dtype, 'fan_avg', rng=rng)
