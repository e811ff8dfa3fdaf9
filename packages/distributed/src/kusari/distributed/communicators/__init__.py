"""Communicators: how the processes of a job exchange arrays, objects and
a model's gradients."""
import logging

from kusari.distributed.communicators._base import CommunicatorBase
from kusari.distributed.communicators._deadline import CommunicationTimeout
from kusari.distributed.communicators._deadline import RankLost
from kusari.distributed.communicators.dummy_communicator import \
    DummyCommunicator
from kusari.distributed.communicators.flat_communicator import \
    FlatCommunicator
from kusari.distributed.communicators.mpi_communicator_base import \
    MpiCommunicatorBase
from kusari.distributed.communicators.naive_communicator import \
    NaiveCommunicator
from kusari.distributed.communicators.non_cuda_aware_communicator import \
    NonCudaAwareCommunicator
from kusari.distributed.communicators.pure_nccl_communicator import \
    PureNcclCommunicator
from kusari.distributed.communicators import pure_nccl_communicator

__all__ = ['CommunicationTimeout', 'CommunicatorBase', 'DummyCommunicator',
           'FlatCommunicator', 'MpiCommunicatorBase', 'NaiveCommunicator',
           'NonCudaAwareCommunicator', 'PureNcclCommunicator', 'RankLost',
           'create_communicator']

_KINDS = {'naive': NaiveCommunicator, 'flat': FlatCommunicator,
          'non_cuda_aware': NonCudaAwareCommunicator,
          'pure_nccl': PureNcclCommunicator, 'dummy': DummyCommunicator}


def create_communicator(communicator_name=None, mpi_comm=None, **kwargs):
    """Create a communicator.

    ==================  ===  ===  =======================================
    name                CPU  GPU  use
    ==================  ===  ===  =======================================
    ``pure_nccl``            OK   GPUs with NCCL 2 (the fastest there)
    ``flat``            OK   OK   GPU buffers need a CUDA-aware MPI
    ``non_cuda_aware``  OK   OK   GPUs with any MPI: packed on the GPU,
                                  one copy to the host and back
    ``naive``           OK   OK   anywhere; each array through host
                                  memory (testing, CPU training)
    ``dummy``           OK   OK   measuring: gradients are packed but not
                                  exchanged (it does not train alike)
    ==================  ===  ===  =======================================

    Args:
        communicator_name (str): ``'naive'``, ``'flat'``,
            ``'non_cuda_aware'``, ``'pure_nccl'`` or ``'dummy'``. None
            (the default) means ``'pure_nccl'`` where CuPy with NCCL and
            a GPU are present, else ``'naive'`` with a warning (Chainer's
            CPU mode).
        mpi_comm: The mpi4py communicator (default ``MPI.COMM_WORLD``).
        allreduce_grad_dtype: dtype gradients are averaged in
            (``pure_nccl``: float16 or float32; by default float16 where
            ``config.dtype`` is float16 or mixed16, else float32; the MPI
            ones: float32 or float64, by default float32 unless a
            gradient is float64).
        timeout (float): Seconds any communication may wait for the
            other ranks before raising :class:`CommunicationTimeout`
            naming the call (default: the environment variable
            ``KUSARI_DISTRIBUTED_TIMEOUT``, else 600).
        batched_copy (bool): Accepted for Chainer's signature and
            ignored: gradients are always packed into one buffer.

    Returns:
        A :class:`CommunicatorBase`.
    """
    if mpi_comm is None:
        from mpi4py import MPI
        mpi_comm = MPI.COMM_WORLD
    kwargs.pop('batched_copy', None)
    unknown = set(kwargs) - {'allreduce_grad_dtype', 'timeout'}
    if unknown:
        raise TypeError(f'create_communicator: unexpected keyword '
                        f'arguments {sorted(unknown)}')
    if communicator_name is None:
        communicator_name = 'pure_nccl'
        if pure_nccl_communicator._nccl_or_reason()[0] is None:
            # Chainer warns (UserWarning); a fallback is logged here, as
            # a warning that shows without any logging set up.
            logging.getLogger('kusari.distributed').warning(
                'using naive communicator because only naive supports '
                'CPU-only execution')
            communicator_name = 'naive'
    if communicator_name not in _KINDS:
        raise ValueError(
            f'create_communicator: unknown communicator_name '
            f'{communicator_name!r} on rank {mpi_comm.Get_rank()}; expected '
            f'one of {sorted(_KINDS)}')
    return _KINDS[communicator_name](mpi_comm, **kwargs)
