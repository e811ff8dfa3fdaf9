"""Walker's alias method: constant-time sampling from a fixed discrete
distribution."""
import numpy

from kusari.array import backend
from kusari.array import device_resident


class WalkerAlias(device_resident.DeviceResident):
    """Samples indices ``i`` with probability proportional to
    ``probs[i]``.

    The table is built once, in O(n log n), and lays out as Chainer's
    (so that a seeded ``numpy.random`` draws the same samples): the
    normalized probabilities (float32), times n, are taken in increasing
    order, each filling the next column as its primary index with its
    remaining mass as the column's threshold, after topping up, in
    order, the earlier columns that have no alias yet while its mass
    exceeds 1. Each sample costs one uniform draw ``u`` times n: its
    integer part picks a column, its fractional part keeps the column's
    primary index if not above the column's threshold and takes its
    alias otherwise. Sampling runs on the device the table is on
    (:meth:`to_device`, :meth:`to_gpu`, :meth:`to_cpu`).

    Args:
        probs (sequence of float): Non-negative weights, not all zero.

    Attributes:
        threshold (array of float32): Per column, the probability of
            keeping its primary index.
        values (array of int32): Per column ``k``, its primary index at
            ``2 * k`` and its alias at ``2 * k + 1``.
    """

    def __init__(self, probs):
        weights = numpy.asarray(probs, numpy.float64)
        if weights.ndim != 1 or weights.size == 0 or \
                (weights < 0).any() or not numpy.isfinite(weights).all() \
                or weights.sum() <= 0:
            raise ValueError(
                f'WalkerAlias: probs must be a non-empty 1-d sequence of '
                f'finite non-negative weights, not all zero; got '
                f'{probs!r}')
        probs = numpy.asarray(probs, numpy.float32)
        probs = probs / probs.sum()
        n = probs.size
        threshold = numpy.zeros(n, numpy.float32)
        values = numpy.zeros(2 * n, numpy.int32)
        topped = 0  # the first column that has no alias yet
        for column, (prob, index) in enumerate(
                sorted(zip(probs.tolist(), range(n)))):
            mass = prob * n
            while mass > 1 and topped < column:
                values[2 * topped + 1] = index
                mass -= 1 - float(threshold[topped])
                topped += 1
            threshold[column] = mass
            values[2 * column] = index
        self.threshold = threshold
        self.values = values

    @property
    def use_gpu(self):
        """Whether the table is on a GPU."""
        return self.xp is not numpy

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.threshold = visitor.visit_array(self.threshold)
        self.values = visitor.visit_array(self.values)

    def sample(self, shape):
        """An int32 array of ``shape`` of indices drawn independently."""
        xp = backend.get_array_module(self.threshold)
        n = len(self.threshold)
        with self.device:
            scaled = xp.random.uniform(0, 1, shape) * n
        column = xp.minimum(scaled.astype(numpy.int32), n - 1)
        alias = self.threshold[column] < scaled - column
        return self.values[column * 2 + alias.astype(numpy.int32)]
