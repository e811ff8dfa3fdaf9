"""The dummy communicator: gradients are left as they are."""
from kusari.distributed.communicators import _packing
from kusari.distributed.communicators import mpi_communicator_base


class DummyCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Communicator whose gradient averaging communicates nothing: the
    gradients are packed into one buffer and unpacked again, unchanged,
    so that a run with it measures everything of multi-node training but
    the exchange of gradients. It does not train a model as the others
    do; every other method (broadcasts, objects, arrays) communicates as
    the naive communicator's.
    """

    def _start_grad_mean(self, target, call, sources, snapshot=False):
        # Packed always, also where the others would not (a rank alone,
        # without ``snapshot``): the packing is part of what it measures.
        _packing.pack(sources, target)
        return _packing.unpacked_after(lambda: None, target)
