"""Kusari distributed: multi-node training on MPI, with ChainerMN's API.

Run a training script under ``mpiexec -n N python script.py``; every
process creates a communicator (:func:`create_communicator`), wraps its
optimizer (:func:`create_multi_node_optimizer`) and takes its share of the
data (:func:`scatter_dataset`).
"""
from kusari.array import parts as _parts
from kusari.distributed import communicators  # NOQA
from kusari.distributed import datasets  # NOQA
from kusari.distributed import extensions  # NOQA
from kusari.distributed import functions  # NOQA
from kusari.distributed import global_except_hook  # NOQA
from kusari.distributed import iterators  # NOQA
from kusari.distributed import links  # NOQA
from kusari.distributed.communicators import CommunicationTimeout  # NOQA
from kusari.distributed.communicators import CommunicatorBase  # NOQA
from kusari.distributed.communicators import create_communicator  # NOQA
from kusari.distributed.communicators import RankLost  # NOQA
from kusari.distributed.datasets import scatter_dataset  # NOQA
from kusari.distributed.datasets import scatter_index  # NOQA
from kusari.distributed.evaluator import create_multi_node_evaluator  # NOQA
from kusari.distributed.extensions import (  # NOQA
    create_multi_node_checkpointer)
from kusari.distributed.links import MultiNodeChainList  # NOQA
from kusari.distributed.optimizers import create_multi_node_optimizer  # NOQA

global_except_hook.add_hook_if_requested()

# __version__, read from the installed metadata when asked.
__getattr__ = _parts.module_getattr(__name__, 'kusari-distributed')
