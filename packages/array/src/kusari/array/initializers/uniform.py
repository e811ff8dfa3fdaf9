"""Initializers drawing from uniform distributions."""
from kusari.array.initializers import fans, initializer


class Uniform(initializer.Sampled):
    """Fills an array with samples of :math:`U(-scale, scale)`.

    Args:
        scale (float): Half-width of the interval.
        dtype: Data type the filled array must have (None: any float).
        rng: Random generator with a ``uniform`` method (NumPy's
            ``RandomState`` or ``Generator``, or CuPy's); None uses the
            array module's global one (``numpy.random`` on the host).
    """

    method = 'uniform'

    def arguments(self):
        return -self.scale, self.scale


# A uniform on [-a, a] has standard deviation a / sqrt(3): each gain below is
# three times its normal counterpart's, so both have the same variance.

class LeCunUniform(fans.FanScaled):
    """:math:`U(-s, s)` with :math:`s = scale \\sqrt{3 / fan}`."""

    distribution = Uniform
    gain = 3.0


class HeUniform(fans.FanScaled):
    """:math:`U(-s, s)` with :math:`s = scale \\sqrt{6 / fan}`."""

    distribution = Uniform
    gain = 6.0


class GlorotUniform(fans.GlorotScaled):
    """:math:`U(-s, s)` with
    :math:`s = scale \\sqrt{6 / (fan_{in} + fan_{out})}`."""

    distribution = Uniform
    gain = 3.0
