"""The pure_nccl communicator: gradients and parameters through NCCL."""
import numpy

from kusari.array import lazy_cupy
from kusari.array import configuration
from kusari.distributed.communicators import mpi_communicator_base


def _nccl_or_reason():
    """``(cupy.cuda.nccl, None)``, or ``(None, why it is unavailable)``."""
    cupy = lazy_cupy.cupy_or_none()
    if cupy is None:
        try:
            lazy_cupy.require_cupy()
        except RuntimeError as error:
            return None, str(error)
    try:
        from cupy.cuda import nccl
    except ImportError as error:
        return None, f'CuPy was built without NCCL ({error})'
    if not getattr(nccl, 'available', True):
        return None, 'CuPy was built without NCCL'
    return nccl, None


class PureNcclCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Communicator that averages gradients and broadcasts parameters with
    NCCL on the GPUs (one process per GPU; choose it with
    ``comm.intra_rank``), and sends everything else through MPI.

    Gradients are averaged in ``allreduce_grad_dtype`` if given (float16
    or float32), else in float16 where ``config.dtype`` is float16 or
    mixed16 and in float32 otherwise. The NCCL communicator is made at the
    first use, on the then current GPU. NCCL calls are not bounded by the
    ``'timeout'`` configuration (the MPI ones are).

    Raises:
        RuntimeError: on every rank, naming the ranks where CuPy, a GPU or
            NCCL is missing.
    """

    _grad_dtypes = ('float16', 'float32')

    def __init__(self, mpi_comm, allreduce_grad_dtype=None, timeout=None):
        super().__init__(mpi_comm, allreduce_grad_dtype, timeout)
        nccl, reason = _nccl_or_reason()
        reasons = self.allgather_obj(reason)
        missing = [(rank, why) for rank, why in enumerate(reasons) if why]
        if missing:
            listed = '; '.join(f'rank {rank}: {why}' for rank, why in missing)
            raise RuntimeError(
                f'create_communicator: pure_nccl needs CuPy with NCCL and a '
                f'CUDA GPU on every rank ({listed}). Use the naive or flat '
                f'communicator without them.')
        self._nccl = nccl
        self._nccl_comm = None
        self._stream = None

    def _grad_dtype(self, dtypes):
        configured = self._config['allreduce_grad_dtype']
        if configured is not None:
            return configured
        if configuration.get_dtype() == numpy.float16:
            return numpy.dtype(numpy.float16)
        return numpy.dtype(numpy.float32)

    def _buffer_module(self, arrays):
        return lazy_cupy.require_cupy()

    def _communicator(self):
        """The NCCL communicator and its stream, made at the first call."""
        if self._nccl_comm is None:
            cupy = lazy_cupy.require_cupy()
            unique_id = self.bcast_obj(
                self._nccl.get_unique_id() if self._rank == 0 else None)
            self._nccl_comm = self._nccl.NcclCommunicator(
                self._size, unique_id, self._rank)
            self._stream = cupy.cuda.Stream(non_blocking=True)
        return self._nccl_comm, self._stream

    def _nccl_type(self, dtype):
        return {'float16': self._nccl.NCCL_FLOAT16,
                'float32': self._nccl.NCCL_FLOAT32,
                'float64': self._nccl.NCCL_FLOAT64}[numpy.dtype(dtype).name]

    def _on_stream(self, buffer, operation):
        """Run ``operation(comm, stream)`` on the communication stream once
        what the current stream does to ``buffer`` is done; return the
        function that waits for it."""
        cupy = lazy_cupy.require_cupy()
        comm, stream = self._communicator()
        stream.wait_event(cupy.cuda.get_current_stream().record())
        operation(comm, stream)
        done = stream.record()
        return lambda: cupy.cuda.get_current_stream().wait_event(done)

    def _start_sum(self, target, call):
        return self._on_stream(target, lambda comm, stream: comm.allReduce(
            target.data.ptr, target.data.ptr, target.size,
            self._nccl_type(target.dtype), self._nccl.NCCL_SUM, stream.ptr))

    def _complete_broadcast(self, buffer, call):
        self._on_stream(buffer, lambda comm, stream: comm.bcast(
            buffer.data.ptr, buffer.size, self._nccl_type(buffer.dtype), 0,
            stream.ptr))()

    def finalize(self):
        """Destroy the NCCL communicator (and free a split MPI one)."""
        if self._nccl_comm is not None:
            self._nccl_comm.destroy()
            self._nccl_comm = None
        super().finalize()
