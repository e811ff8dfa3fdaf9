"""The non_cuda_aware communicator: packed on the device, through MPI on
the host."""
import numpy

from kusari.array import backend
from kusari.array import lazy_cupy
from kusari.distributed.communicators import mpi_communicator_base


def _pinned_like(array):
    """An uninitialized host array of ``array``'s shape and dtype in
    page-locked memory (from CuPy's pool), which the GPU copies to and
    from fastest."""
    lazy_cupy.require_cupy()
    import cupyx
    return cupyx.empty_pinned(array.shape, array.dtype)


class NonCudaAwareCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Communicator for GPU training with an MPI that cannot read GPU
    memory: the gradients (and, in :meth:`bcast_data`, the parameters) are
    packed into one buffer on their own device, as by
    :class:`FlatCommunicator`; that buffer crosses to host memory in one
    copy, is summed (or broadcast) by MPI there, and comes back in one
    copy. The naive communicator instead copies each array to the host
    on its own. On NumPy arrays both are the same.

    (Chainer's communicator of this name also reduces within a machine
    through NCCL; this one stages everything through the host, so it
    needs no NCCL.)
    """

    def _buffer_module(self, arrays):
        return backend.get_array_module(*arrays)

    def _start_sum(self, target, call):
        if isinstance(target, numpy.ndarray):
            return super()._start_sum(target, call)
        host = _pinned_like(target)
        target.get(out=host)
        wait = super()._start_sum(host, call)

        def finish():
            wait()
            target.set(host)
        return finish

    def _complete_broadcast(self, buffer, call):
        if isinstance(buffer, numpy.ndarray):
            super()._complete_broadcast(buffer, call)
            return
        host = _pinned_like(buffer)
        buffer.get(out=host)
        super()._complete_broadcast(host, call)
        buffer.set(host)
