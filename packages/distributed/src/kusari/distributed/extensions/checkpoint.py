"""Generational checkpoints of every process, resumed where all agree."""
import os
import re

from kusari.serializers import npz
from kusari.training import extension


class _MultiNodeCheckpointer(extension.Extension):
    """The extension :func:`create_multi_node_checkpointer` returns."""

    trigger = 1, 'epoch'
    priority = -100

    def __init__(self, name, comm, cp_interval, gc_interval, path):
        for argument, value in (('cp_interval', cp_interval),
                                ('gc_interval', gc_interval)):
            if not isinstance(value, int) or value < 1:
                raise ValueError(f'create_multi_node_checkpointer: '
                                 f'{argument} must be an int >= 1, got '
                                 f'{value!r}')
        self.run_name = name
        self.comm = comm
        self.cp_interval = cp_interval
        self.gc_interval = gc_interval
        self.path = path
        self._saves = 0
        self._failed = False
        self._written_to = None
        self._pattern = re.compile(
            re.escape(f'{name}.{comm.rank}.') + r'(\d+)$')

    def _directory(self, trainer=None):
        if self.path is not None:
            return self.path
        return getattr(trainer, 'out', None) or '.'

    def _iterations(self, directory):
        """The iterations of this process's checkpoints in ``directory``,
        oldest first."""
        try:
            names = os.listdir(directory)
        except FileNotFoundError:
            return []
        return sorted(int(m.group(1)) for m in map(self._pattern.match,
                                                   names) if m)

    def _file(self, directory, iteration):
        return os.path.join(directory,
                            f'{self.run_name}.{self.comm.rank}.{iteration}')

    def __call__(self, trainer):
        self.save(trainer, trainer.updater.iteration)

    def save(self, target, iteration=None):
        """Write ``target`` as this process's checkpoint of ``iteration``
        (default: ``target.updater.iteration``, else the number of saves);
        every ``gc_interval`` saves, keep only the ``cp_interval`` newest.
        """
        if iteration is None:
            updater = getattr(target, 'updater', None)
            iteration = updater.iteration if updater is not None \
                else self._saves + 1
        directory = self._directory(target)
        os.makedirs(directory, exist_ok=True)
        npz.save_npz(self._file(directory, iteration), target)
        self._written_to = directory
        self._saves += 1
        if self._saves % self.gc_interval == 0:
            for old in self._iterations(directory)[:-self.cp_interval]:
                os.remove(self._file(directory, old))

    def maybe_load(self, trainer, optimizer=None, path=None):
        """Load the newest checkpoint that every process has (a collective
        call); return its iteration, or None where there is none.

        ``optimizer`` is accepted as in Chainer: the multi-node optimizer
        here needs no broadcast after a load, since every process loads
        the same iteration.
        """
        directory = path or self._directory(trainer)
        everyone = self.comm.allgather_obj(self._iterations(directory))
        common = set(everyone[0]).intersection(*map(set, everyone[1:]))
        if not common:
            return None
        iteration = max(common)
        npz.load_npz(self._file(directory, iteration), trainer)
        return iteration

    def on_error(self, trainer, exc, tb):
        self._failed = True

    def finalize(self):
        """After a training without error, remove this process's
        checkpoints."""
        if self._failed or self._written_to is None:
            return
        for iteration in self._iterations(self._written_to):
            os.remove(self._file(self._written_to, iteration))


def create_multi_node_checkpointer(name, comm, cp_interval=5, gc_interval=5,
                                   path=None):
    """Make an extension that keeps the newest checkpoints of every
    process, to resume the whole job where all processes agree.

    Each process writes ``<name>.<rank>.<iteration>`` (NPZ) into ``path``
    (default: the trainer's ``out``). Call ``maybe_load(trainer)`` before
    ``trainer.run()`` (after extending the trainer with everything that
    has state) to resume from the newest iteration every process has;
    ``save(obj)`` checkpoints without a trainer. The files are removed
    when the training ends without error. Deprecated in Chainer for
    :func:`multi_node_snapshot`.

    Args:
        name (str): Identifies the run.
        comm: The communicator.
        cp_interval (int): Number of newest checkpoints kept.
        gc_interval (int): Old checkpoints are removed every this many
            saves.
        path (str): Directory of the files.
    """
    return _MultiNodeCheckpointer(name, comm, cp_interval, gc_interval,
                                  path)
