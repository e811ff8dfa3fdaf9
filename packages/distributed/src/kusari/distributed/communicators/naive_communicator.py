"""The naive communicator: everything through host memory."""
from kusari.distributed.communicators import mpi_communicator_base


class NaiveCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Communicator whose buffers are always on the host: it works with
    any MPI, on CPU and GPU arrays alike (GPU arrays are copied to the
    host and back), which makes it the one for testing and CPU training.
    Gradients travel packed into one buffer per call."""
