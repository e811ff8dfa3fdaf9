"""The flat communicator: packed buffers on the arrays' own device."""
import numpy

from kusari.array import backend
from kusari.distributed.communicators import mpi_communicator_base


def _synchronized(array):
    """``array``, once the GPU has finished writing it (MPI reads GPU
    memory outside CuPy's streams)."""
    if not isinstance(array, numpy.ndarray):
        array.device.synchronize()
    return array


class FlatCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Communicator that packs the gradients into one buffer on their own
    device and hands it to MPI there: on the host for NumPy arrays, on the
    GPU for CuPy arrays, which needs a CUDA-aware MPI. It saves the host
    copies of :class:`NaiveCommunicator` where the MPI can read GPU
    memory."""

    def _buffer_module(self, arrays):
        return backend.get_array_module(*arrays)

    def _start_sum(self, target, call):
        return super()._start_sum(_synchronized(target), call)

    def _complete_broadcast(self, buffer, call):
        super()._complete_broadcast(_synchronized(buffer), call)
