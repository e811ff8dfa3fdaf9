"""Walker's alias method: constant-time sampling from a fixed discrete
distribution."""
import numpy

from kusari.array import backend
from kusari.array import device_resident


class WalkerAlias(device_resident.DeviceResident):
    """Samples indices ``i`` with probability proportional to
    ``probs[i]``.

    The table is built once (Vose's construction, O(n)); each sample then
    costs one uniform draw: its integer part picks a column ``k``, and
    its fractional part keeps ``k`` if below ``threshold[k]`` or takes
    ``alias[k]`` otherwise. Sampling runs on the device the table is on
    (:meth:`to_device`, :meth:`to_gpu`, :meth:`to_cpu`).

    Args:
        probs (sequence of float): Non-negative weights, not all zero.

    Attributes:
        threshold (array of float32): Per column, the probability of
            keeping it.
        alias (array of int32): Per column, the index taken otherwise.
    """

    def __init__(self, probs):
        probs = numpy.asarray(probs, numpy.float64)
        if probs.ndim != 1 or probs.size == 0 or (probs < 0).any() or \
                not numpy.isfinite(probs).all() or probs.sum() <= 0:
            raise ValueError(
                f'WalkerAlias: probs must be a non-empty 1-d sequence of '
                f'finite non-negative weights, not all zero; got '
                f'{probs!r}')
        n = probs.size
        scaled = probs * (n / probs.sum())
        threshold = numpy.ones(n)
        alias = numpy.arange(n, dtype=numpy.int32)
        small = [i for i in range(n) if scaled[i] < 1]
        large = [i for i in range(n) if scaled[i] >= 1]
        while small and large:
            s, g = small.pop(), large.pop()
            threshold[s] = scaled[s]
            alias[s] = g
            # The column of s takes the rest of its height from g.
            scaled[g] -= 1 - scaled[s]
            (small if scaled[g] < 1 else large).append(g)
        self.threshold = threshold.astype(numpy.float32)
        self.alias = alias

    @property
    def use_gpu(self):
        """Whether the table is on a GPU."""
        return self.xp is not numpy

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.threshold = visitor.visit_array(self.threshold)
        self.alias = visitor.visit_array(self.alias)

    def sample(self, shape):
        """An int32 array of ``shape`` of indices drawn independently."""
        xp = backend.get_array_module(self.threshold)
        n = len(self.threshold)
        with self.device:
            draw = xp.random.uniform(0, n, shape)
        column = xp.minimum(draw.astype(numpy.int32), n - 1)
        keep = (draw - column) < self.threshold[column]
        return xp.where(keep, column, self.alias[column]).astype(
            numpy.int32)
