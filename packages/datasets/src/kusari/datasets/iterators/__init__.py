"""Iterators that make mini-batches from datasets, and order samplers."""
from kusari.datasets.iterators.multiprocess_iterator import (  # NOQA
    MultiprocessIterator)
from kusari.datasets.iterators.multithread_iterator import (  # NOQA
    MultithreadIterator)
from kusari.datasets.iterators.order_samplers import (  # NOQA
    OrderSampler, ShuffleOrderSampler)
from kusari.datasets.iterators.serial_iterator import SerialIterator  # NOQA
