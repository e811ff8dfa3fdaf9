"""A dataset of empty examples, for processes whose model takes no input.
"""


def create_empty_dataset(dataset):
    """A dataset of ``len(dataset)`` empty tuples.

    A process whose model receives its inputs from other processes (it
    starts with :func:`~kusari.distributed.functions.recv`) still needs a
    dataset of the right length for its iterator and updater.
    """
    return [()] * len(dataset)
