"""Data-parallel training on several devices from one process."""
import copy

from kusari.datasets import convert
from kusari.autograd import graph_mode
from kusari.training.updaters import _devices
from kusari.training.updaters import standard_updater


class ParallelUpdater(standard_updater.StandardUpdater):
    """Updater that splits each batch over several devices.

    Each update converts the ``i``-th of ``n`` interleaved slices of the
    batch onto the ``i``-th device, computes the loss of each model copy on
    its slice, sums the gradients into the main model, updates it and
    copies its parameters back to the other copies. Meant for CuPy devices,
    it works with any devices (CPU ones give the same result as one
    device, which is how it is tested without GPUs).

    Args:
        iterator, optimizer, converter, loss_func, loss_scale,
            auto_new_epoch: As in :class:`StandardUpdater`.
        models (dict): Model copies by name, with ``'main'`` the target of
            the optimizer; if None, made from ``devices`` by deep copies.
        devices (dict): Device specifiers by name, with a ``'main'`` one.
    """

    def __init__(self, iterator, optimizer,
                 converter=convert.concat_examples, models=None,
                 devices=None, loss_func=None, loss_scale=None,
                 auto_new_epoch=True):
        caller = type(self).__name__
        if devices is None:
            raise ValueError(f'{caller}: devices must be given (a dict of '
                             f"device specifiers with a 'main' entry)")
        devices = _devices.resolve_all(caller, devices)
        # These updaters train the 'main' optimizer's target.
        standard_updater._named(caller, 'optimizers', optimizer)
        super().__init__(iterator, optimizer, converter=converter,
                         loss_func=loss_func, loss_scale=loss_scale,
                         auto_new_epoch=auto_new_epoch)
        main = self.get_optimizer('main').target
        if models is None:
            models = {name: main if name == 'main' else copy.deepcopy(main)
                      for name in devices}
        elif set(models) != set(devices) or models.get('main') is not main:
            raise ValueError(f"{caller}: models must have the keys of "
                             f"devices ({sorted(devices)}), with 'main' "
                             f"the optimizer's target; got {sorted(models)}")
        for name, model in models.items():
            model.to_device(devices[name])
        self._models = models
        self._devices = devices
        self.loss_scale = loss_scale

    def connect_trainer(self, trainer):
        """Register the model copies as observers of the trainer's
        reporter, each under its device name."""
        main = self.get_optimizer('main').target
        for name, model in self._models.items():
            if model is not main:
                trainer.reporter.add_observer(name, model)
                trainer.reporter.add_observers(
                    name, model.namedlinks(skipself=True))

    def update_core(self):
        optimizer = self.get_optimizer('main')
        main = optimizer.target
        iterator = self.get_iterator('main')
        batch = standard_updater._next_batch(type(self).__name__, 'main',
                                             iterator)
        count = len(self._models)
        losses = []
        for index, (name, model) in enumerate(self._models.items()):
            in_arrays = convert.call_converter(
                self.converter, batch[index::count], self._devices[name])
            model.cleargrads()
            loss_func = self.loss_func or model
            with graph_mode.force_backprop_mode(), self._devices[name]:
                losses.append(standard_updater.call_with_batch(
                    loss_func, in_arrays))
        for loss in losses:
            loss.backward(loss_scale=self.loss_scale)
        others = [model for model in self._models.values()
                  if model is not main]
        for model in others:
            main.addgrads(model)
        optimizer.update()
        for model in others:
            model.copyparams(main)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)
