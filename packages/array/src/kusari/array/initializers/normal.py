"""Initializers drawing from normal distributions."""
from kusari.array.initializers import fans, initializer


class Normal(initializer.Sampled):
    """Fills an array with samples of :math:`N(0, scale^2)`.

    Args:
        scale (float): Standard deviation.
        dtype: Data type the filled array must have (None: any float).
        rng: Random generator with a ``normal`` method (NumPy's
            ``RandomState`` or ``Generator``, or CuPy's); None uses the
            array module's global one (``numpy.random`` on the host).
    """

    method = 'normal'

    def arguments(self):
        return 0.0, self.scale


class LeCunNormal(fans.FanScaled):
    """:math:`N(0, s^2)` with :math:`s = scale \\sqrt{1 / fan}`."""

    distribution = Normal
    gain = 1.0


class HeNormal(fans.FanScaled):
    """:math:`N(0, s^2)` with :math:`s = scale \\sqrt{2 / fan}`.

    Suited to layers followed by ReLU.
    """

    distribution = Normal
    gain = 2.0


class GlorotNormal(fans.GlorotScaled):
    """:math:`N(0, s^2)` with
    :math:`s = scale \\sqrt{2 / (fan_{in} + fan_{out})}`."""

    distribution = Normal
    gain = 1.0
