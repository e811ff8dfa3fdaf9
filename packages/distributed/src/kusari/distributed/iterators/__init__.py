"""Iterators that give several processes the same batches."""
from kusari.distributed.iterators.multi_node_iterator import (  # NOQA
    create_multi_node_iterator)
from kusari.distributed.iterators.synchronized_iterator import (  # NOQA
    create_synchronized_iterator)
