"""Differentiable communication between processes, for model
parallelism: the gradients travel back the way the values came."""
from kusari.distributed.functions.collective_communication import (  # NOQA
    allgather, alltoall, bcast, gather, scatter)
from kusari.distributed.functions.point_to_point_communication import (  # NOQA
    recv, send)
from kusari.distributed.functions.pseudo_connect import pseudo_connect  # NOQA
