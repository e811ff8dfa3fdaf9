"""Snapshots of a multi-process training: one per set of replicas."""
import numbers

from kusari.training import extension


def replica_sets_of(replica_sets, size):
    """The list of disjoint sets of ranks ``replica_sets`` describes: each
    item an int or an iterable of ints, the ranks left over one more set.
    """
    sets, covered = [], set()
    for item in replica_sets:
        members = {item} if isinstance(item, numbers.Integral) \
            else set(item)
        bad = sorted(r for r in members if not (
            isinstance(r, numbers.Integral) and 0 <= r < size))
        if bad or not members:
            raise ValueError(
                f'multi_node_snapshot: a replica set must hold ranks in '
                f'[0, {size}), got {sorted(members, key=str)}')
        if members & covered:
            raise ValueError(
                f'multi_node_snapshot: ranks {sorted(members & covered)} '
                f'are in two replica sets')
        covered |= members
        sets.append(members)
    rest = set(range(size)) - covered
    if rest:
        sets.append(rest)
    return sets


class _MultiNodeSnapshot(extension.Extension):

    def __init__(self, comm, snapshot, replica_sets):
        sets = replica_sets_of(replica_sets, comm.size)
        index = next(i for i, s in enumerate(sets) if comm.rank in s)
        self.snapshot = snapshot
        self.is_writer = comm.rank == min(sets[index])
        self.trigger = snapshot.trigger
        self.priority = snapshot.priority
        if len(sets) > 1:
            snapshot.filename = _suffixed(snapshot.filename,
                                          f'.replica{index}')

    def initialize(self, trainer):
        self.snapshot.initialize(trainer)

    def __call__(self, trainer):
        if self.is_writer:
            self.snapshot(trainer)

    def on_error(self, trainer, exc, tb):
        if self.is_writer:
            self.snapshot.on_error(trainer, exc, tb)

    def finalize(self):
        self.snapshot.finalize()


def _suffixed(filename, suffix):
    if isinstance(filename, str):
        return filename + suffix
    return lambda trainer: filename(trainer) + suffix


def multi_node_snapshot(comm, snapshot, replica_sets):
    """Wrap a snapshot extension for a multi-process training.

    The processes are split into replica sets whose trainers hold the
    same state (say rank 0, which has the reporting extensions, and the
    others): one process of each set (its lowest rank) writes the set's
    snapshots, named with ``.replica<i>`` after the snapshot's file name
    where there are several sets. With ``autoload``, every process loads
    the newest snapshot of its set from its ``trainer.out`` (a directory
    the processes of a set share), so a job restarted with another
    number of processes resumes too.

    ======================  =====  ============================
    ``replica_sets``        size   sets
    ======================  =====  ============================
    ``[0]``                 4      {0}, {1, 2, 3}
    ``[0, 1]``              4      {0}, {1}, {2, 3}
    ``[[0, 1], [2, 3]]``    4      {0, 1}, {2, 3}
    ``[]``                  4      {0, 1, 2, 3}
    ======================  =====  ============================

    Args:
        comm: The communicator.
        snapshot: A snapshot extension (:func:`snapshot`).
        replica_sets: List of replica sets, each a rank or an iterable of
            ranks; the ranks left over make the last set.

    Returns:
        The trainer extension.
    """
    return _MultiNodeSnapshot(comm, snapshot, replica_sets)
