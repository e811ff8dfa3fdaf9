"""Splitting a dataset of one process among all processes."""
import math
import pickle

import numpy

from kusari.datasets import sub_dataset

_LARGEST_MESSAGE = 2147483647  # MPI counts are C ints


def _communicator(comm):
    """A communicator from a communicator or an mpi4py communicator."""
    if hasattr(comm, 'bcast_obj'):
        return comm
    from kusari.distributed.communicators import NaiveCommunicator
    return NaiveCommunicator(comm)


def _range_of(rank, size, n_total, force_equal_length):
    """The ``(begin, end)`` of ``rank``'s share of ``n_total`` examples."""
    if force_equal_length:
        length = math.ceil(n_total / size)
        begin = max(0, min(rank * length, n_total - length))
        return begin, begin + length
    return rank * n_total // size, (rank + 1) * n_total // size


def scatter_index(n_total_samples, comm, root=0, *,
                  force_equal_length=True):
    """This process's share ``(begin, end)`` of ``root``'s
    ``n_total_samples`` indices (``end`` excluded).

    Args:
        n_total_samples (int): The number of examples (read on ``root``).
        comm: The communicator.
        root (int): The process whose count is used.
        force_equal_length (bool): Give every process
            ``ceil(n / size)`` indices, the last shares overlapping the
            ones before where ``n`` does not divide (as training needs:
            every process runs as many iterations); otherwise the shares
            do not overlap and differ in length by at most one (for exact
            evaluation).
    """
    comm = _communicator(comm)
    n_total = comm.bcast_obj(n_total_samples, root=root)
    if isinstance(n_total, bool) or not isinstance(
            n_total, (int, numpy.integer)) or n_total < 0:
        raise ValueError(f'scatter_index: n_total_samples of rank {root} '
                         f'must be an int >= 0, got {n_total!r}')
    return _range_of(comm.rank, comm.size, int(n_total), force_equal_length)


def scatter_dataset(dataset, comm, root=0, shuffle=False, seed=None,
                    max_buf_len=256 * 1024 * 1024, *,
                    force_equal_length=True):
    """Split ``root``'s ``dataset`` into one share per process.

    The other processes' ``dataset`` is ignored (pass None). Each share
    is a :class:`~kusari.datasets.SubDataset`: on ``root`` a view of the
    dataset, elsewhere of the examples ``root`` sent, pickled in one
    message per process.

    Args:
        dataset: The dataset (on ``root``).
        comm: The communicator, or an mpi4py communicator.
        root (int): The process that holds the dataset.
        shuffle (bool): Permute the examples before splitting.
        seed (int): Seed of the permutation (None: a random one).
        max_buf_len (int): Largest share in bytes, pickled (at most
            2147483647, MPI's limit); a larger share is an error on every
            process, naming it.
        force_equal_length (bool): See :func:`scatter_index`.

    Returns:
        This process's share of the dataset.
    """
    comm = _communicator(comm)
    if not 0 < max_buf_len <= _LARGEST_MESSAGE:
        raise ValueError(f'scatter_dataset: max_buf_len must be in [1, '
                         f'{_LARGEST_MESSAGE}], got {max_buf_len}')
    tag = 0
    if comm.rank == root:
        n_total = len(dataset)
        order = numpy.random.RandomState(seed).permutation(n_total) \
            if shuffle else None
        shares, error = {}, None
        for rank in range(comm.size):
            begin, end = _range_of(rank, comm.size, n_total,
                                   force_equal_length)
            if rank == root:
                mine = sub_dataset.SubDataset(dataset, begin, end, order)
                continue
            indices = range(begin, end) if order is None else order[begin:end]
            share = pickle.dumps([dataset[i] for i in indices],
                                 pickle.HIGHEST_PROTOCOL)
            if len(share) > max_buf_len:
                error = (f'scatter_dataset: the share of rank {rank} '
                         f'({end - begin} examples) pickles to {len(share)} '
                         f'bytes, more than max_buf_len={max_buf_len}; '
                         f'raise max_buf_len, or scatter indices with '
                         f'scatter_index and load the examples on each '
                         f'process')
                break
            shares[rank] = share
    else:
        error = None
    error = comm.bcast_obj(error, root=root)
    if error is not None:
        raise ValueError(error)
    if comm.rank == root:
        for rank, share in shares.items():
            comm.send_obj(share, rank, tag)
        return mine
    examples = pickle.loads(comm.recv_obj(root, tag))
    return sub_dataset.SubDataset(examples, 0, len(examples))
