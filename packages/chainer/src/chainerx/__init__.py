"""ChainerX stand-in: ChainerX is not part of Kusari.

Code written for Chainer 7 probes ChainerX with ``chainerx.is_available()``
and ``isinstance(x, chainerx.ndarray)``; both answer no here, so that code
takes its NumPy/CuPy path.
"""


def is_available():
    """Always False: Kusari has no ChainerX backend."""
    return False


class ndarray:
    """ChainerX's array type: no array is one, so ``isinstance`` checks on
    it are False."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError('chainerx.ndarray: ChainerX is not part of '
                           'Kusari; arrays are NumPy or CuPy')
