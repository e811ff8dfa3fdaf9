"""Orthogonal initialization (Saxe et al., 2014)."""
import math

import numpy

from kusari.array import backend
from kusari.array.initializers import initializer

# For each mode: whether it allows out_dim < in_dim (rows orthonormal) and
# out_dim > in_dim (columns orthonormal). Square is always allowed.
_MODES = {
    'auto': (True, True),
    'projection': (True, False),
    'embedding': (False, True),
    'basis': (False, False),
}


class Orthogonal(initializer.Initializer):
    """Fills an array with a scaled (semi-)orthogonal matrix.

    The array is viewed as a matrix ``W`` of shape
    ``(shape[0], prod(shape[1:]))`` (a 1-D array as a column; a 0-D one
    is ``+-scale``, a fair coin flip). If ``W`` is wide its rows are
    orthonormal (``W W^T = scale^2 I``, a projection), if tall its columns
    are (``W^T W = scale^2 I``, an embedding). The matrix is drawn
    uniformly (Haar) from such matrices.

    Args:
        scale (float): Multiplier of the orthonormal matrix.
        dtype: Data type the filled array must have (None: any float).
        mode (str): Which shapes to accept: ``'auto'`` (any),
            ``'projection'`` (``out <= in``), ``'embedding'``
            (``out >= in``) or ``'basis'`` (square).
        rng: Random generator with a ``normal`` method (and ``randint``
            or ``integers`` for a 0-D array); None uses the array
            module's global one (``numpy.random`` on the host).
    """

    def __init__(self, scale=1.1, dtype=None, mode='auto', *, rng=None):
        if mode not in _MODES:
            raise ValueError(
                f'Orthogonal: mode must be one of {", ".join(_MODES)}, got '
                f'{mode!r}')
        self.scale = scale
        self.mode = mode
        self.rng = rng
        super().__init__(dtype)

    def __call__(self, array):
        self.check_array(array)
        if array.ndim == 0:
            # A 1x1 orthogonal matrix is +-1: one fair coin flip.
            initializer.assign(array, numpy.asarray(
                self.scale * (2 * self._coin() - 1)))
            return
        if array.size == 0:
            raise ValueError(
                f'Orthogonal: cannot fill an empty array (shape '
                f'{array.shape})')
        out_dim = array.shape[0]
        in_dim = math.prod(array.shape[1:])
        wide_ok, tall_ok = _MODES[self.mode]
        if (out_dim < in_dim and not wide_ok) or (
                out_dim > in_dim and not tall_ok):
            raise ValueError(
                f'Orthogonal: mode {self.mode!r} cannot make an orthogonal '
                f'matrix of shape {array.shape} (viewed as {out_dim} x '
                f'{in_dim})')
        # Orthonormal columns of a tall Gaussian matrix (the transpose of
        # the out x in draw when wide, so that a seed gives Chainer's
        # values), signs fixed by R's diagonal so that the result is Haar
        # distributed.
        gaussian = initializer.draw('normal', array, self.rng,
                                    size=(out_dim, in_dim))
        wide = out_dim < in_dim
        xp = backend.get_array_module(gaussian)
        q, r = xp.linalg.qr(gaussian.T if wide else gaussian)
        q = q * xp.copysign(self.scale, xp.diagonal(r))
        matrix = q.T if wide else q
        initializer.assign(array, matrix.reshape(array.shape))

    def _coin(self):
        """0 or 1, from ``rng`` or NumPy's global generator."""
        source = numpy.random if self.rng is None else self.rng
        flip = getattr(source, 'integers', None) or source.randint
        return int(flip(2))
