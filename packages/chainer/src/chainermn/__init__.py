"""ChainerMN's API on Kusari: ``import chainermn`` as in Chainer v7.

The names are :mod:`kusari.distributed`'s; its subpackages are served
under ChainerMN's paths (``chainermn.links``, ``chainermn.functions``, ...)
by the drop-in's alias finder.
"""
import importlib.util

from chainer import _aliases

if importlib.util.find_spec('kusari.distributed') is None:
    raise ImportError('chainermn needs the kusari-distributed package '
                      '(multi-node training on MPI); it is not installed')

ALIASES = {
    f'chainermn.{name}': f'kusari.distributed.{name}'
    for name in ('communicators', 'datasets', 'evaluator', 'extensions',
                 'functions', 'global_except_hook', 'iterators', 'links',
                 'optimizers')}

_aliases.install(ALIASES)

from kusari.distributed import CommunicationTimeout  # NOQA: E402
from kusari.distributed import CommunicatorBase  # NOQA: E402
from kusari.distributed import MultiNodeChainList  # NOQA: E402
from kusari.distributed import RankLost  # NOQA: E402
from kusari.distributed import create_communicator  # NOQA: E402
from kusari.distributed import create_multi_node_checkpointer  # NOQA: E402
from kusari.distributed import create_multi_node_evaluator  # NOQA: E402
from kusari.distributed import create_multi_node_optimizer  # NOQA: E402
from kusari.distributed import scatter_dataset  # NOQA: E402
from kusari.distributed import scatter_index  # NOQA: E402

from chainermn import communicators  # NOQA: E402,F401
from chainermn import datasets  # NOQA: E402,F401
from chainermn import extensions  # NOQA: E402,F401
from chainermn import functions  # NOQA: E402,F401
from chainermn import global_except_hook  # NOQA: E402,F401
from chainermn import iterators  # NOQA: E402,F401
from chainermn import links  # NOQA: E402,F401
