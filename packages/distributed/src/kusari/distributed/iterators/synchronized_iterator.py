"""Iterators that shuffle alike on every process."""
import numpy

from kusari.datasets.iterators import order_samplers


def create_synchronized_iterator(actual_iterator, communicator):
    """Make ``actual_iterator`` of every process draw the same batches.

    Its shuffling order sampler is replaced by one seeded with a seed
    broadcast from rank 0 and it is reset, so that iterators over equal
    datasets read the same examples in the same order without exchanging
    them (a collective call). An iterator in index order stays as it is;
    a custom order sampler must give equal orders by itself.

    Returns:
        ``actual_iterator``.
    """
    if not hasattr(actual_iterator, 'order_sampler'):
        raise TypeError(
            f'create_synchronized_iterator: the iterator must draw its '
            f'order from an order_sampler attribute (as SerialIterator '
            f'does), got {type(actual_iterator).__name__}')
    seed = communicator.bcast_obj(
        int(numpy.random.randint(2 ** 31)) if communicator.rank == 0
        else None)
    if isinstance(actual_iterator.order_sampler,
                  order_samplers.ShuffleOrderSampler):
        actual_iterator.order_sampler = order_samplers.ShuffleOrderSampler(
            numpy.random.RandomState(seed))
        actual_iterator.reset()
    return actual_iterator
