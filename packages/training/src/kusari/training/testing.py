"""Helpers to test trainer extensions without training anything."""
import numbers
from unittest import mock

from kusari.links import link
from kusari.training import trainer as trainer_module
from kusari.training import updater as updater_module


class _MockOptimizer:
    """An optimizer with an empty target and an ``lr``, that updates
    nothing."""

    def __init__(self):
        self.target = link.Link()
        self.lr = 0.01
        self.t = 0
        self.epoch = 0

    def update(self, lossfun=None, *args, **kwargs):
        self.t += 1

    def new_epoch(self, auto=False):
        self.epoch += 1

    def serialize(self, serializer):
        self.t = int(serializer('t', self.t))
        self.epoch = int(serializer('epoch', self.epoch))


class _MockUpdater(updater_module.Updater):
    """An updater that only counts: ``iter_per_epoch`` iterations make an
    epoch.

    As in Chainer, where the updater is a ``mock.Mock``, its
    ``get_optimizer``, ``get_all_optimizers`` and ``update_core`` are
    mocks: a test can set ``get_optimizer.return_value`` or count the
    ``update_core`` calls; unset, they answer as a real updater would.
    """

    def __init__(self, iter_per_epoch):
        self.iter_per_epoch = iter_per_epoch
        self.iteration = 0
        self._optimizer = _MockOptimizer()
        self.get_optimizer = mock.Mock(wraps=self._get_optimizer)
        self.get_all_optimizers = mock.Mock(
            wraps=lambda: {'main': self._optimizer})
        self.update_core = mock.Mock(wraps=self._optimizer.update)

    @property
    def epoch(self):
        return self.iteration // self.iter_per_epoch

    @property
    def epoch_detail(self):
        return self.iteration / self.iter_per_epoch

    @property
    def previous_epoch_detail(self):
        if self.iteration == 0:
            return None
        return (self.iteration - 1) / self.iter_per_epoch

    @property
    def is_new_epoch(self):
        # An epoch may be a fraction of an iteration or span a fraction of
        # one: the last update is new when it changed the epoch count.
        return self.iteration > 0 and \
            (self.iteration - 1) // self.iter_per_epoch != self.epoch

    def _get_optimizer(self, name):
        if name != 'main':
            raise KeyError(f'the mock updater has only the optimizer '
                           f"'main', not {name!r}")
        return self._optimizer

    def update(self):
        self.update_core()
        self.iteration += 1
        if self.is_new_epoch:
            self._optimizer.new_epoch(auto=True)

    def serialize(self, serializer):
        self.iteration = int(serializer('iteration', self.iteration))
        self._optimizer.serialize(serializer['optimizer:main'])


def get_trainer_with_mock_updater(stop_trigger=(10, 'iteration'),
                                  iter_per_epoch=10, extensions=None):
    """Return a Trainer whose updater does nothing but count.

    Its ``updater`` has ``iteration``, ``epoch``, ``epoch_detail``,
    ``previous_epoch_detail`` and ``is_new_epoch`` as a real one
    (``iter_per_epoch`` iterations per epoch), and a ``'main'`` optimizer
    with an ``lr`` and an empty target link; the trainer writes to
    ``'result'``, which tests usually change to a temporary directory.

    Args:
        stop_trigger: Stop trigger of the trainer.
        iter_per_epoch (int or float): Iterations per epoch; a fraction
            (``2.5``, ``0.5``) makes epochs that end between iterations.
        extensions (list): Extensions to add to the trainer.
    """
    if not isinstance(iter_per_epoch, numbers.Real) or \
            isinstance(iter_per_epoch, bool) or not iter_per_epoch > 0:
        raise ValueError(f'get_trainer_with_mock_updater: iter_per_epoch '
                         f'must be a positive number, got {iter_per_epoch!r}')
    return trainer_module.Trainer(_MockUpdater(iter_per_epoch),
                                  stop_trigger, extensions=extensions)
