"""Averaging a model's persistent values over the processes."""
import numpy

from kusari.array import backend
from kusari.distributed.communicators import _packing
from kusari.training import extension


def _float_persistents(model):
    """The float persistent arrays of ``model`` and its descendants."""
    arrays = []
    for _, link, name in model.namedpersistents():
        value = getattr(link, name)
        if getattr(value, 'dtype', None) is not None \
                and value.dtype.kind == 'f':
            arrays.append(value)
    return arrays


class AllreducePersistent(extension.Extension):
    """Trainer extension that replaces every float persistent array of the
    model (the running mean and variance of batch normalization, ...) by
    its mean over the processes, in one message; integer persistents are
    left alone.

    Call it before evaluating or saving the model: every process must
    call it at the same time.

    Args:
        model (Link): The model.
        comm: The communicator.
    """

    trigger = 1, 'epoch'
    priority = extension.PRIORITY_WRITER

    def __init__(self, model, comm):
        self.model = model
        self.comm = comm

    def __call__(self, trainer=None):
        arrays = _float_persistents(self.model)
        if not arrays:
            return
        packed = _packing.pack(arrays, numpy.empty(
            sum(a.size for a in arrays), numpy.float64))
        mean = self.comm.allreduce(packed) / self.comm.size
        offset = 0
        for array in arrays:
            backend.copyto(array, mean[offset:offset + array.size].reshape(
                array.shape))
            offset += array.size
