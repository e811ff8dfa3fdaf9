"""The updater of single-device training."""
from kusari.array import backend
from kusari.datasets import convert
from kusari.training import updater as updater_module


def _named(caller, argument, value, main_required=True):
    """``value`` as a dict by name: a single object becomes ``'main'``.

    Updaters with their own ``update_core`` may name their optimizers
    freely (a GAN's ``'gen'`` and ``'dis'``); every updater reads the
    ``'main'`` iterator.
    """
    named = dict(value) if isinstance(value, dict) else {'main': value}
    if main_required and 'main' not in named:
        raise ValueError(f"{caller}: a dict of {argument} must have a "
                         f"'main' entry, got keys {sorted(named)}")
    return named


def _next_batch(caller, name, iterator):
    """The next batch, or a clear error when the iterator has run dry."""
    try:
        return next(iterator)
    except StopIteration:
        raise RuntimeError(
            f'{caller}: the iterator {name!r} has no more batches (it does '
            f'not repeat) but training is not over: give a repeating '
            f'iterator, or a stop trigger that fires within one epoch'
        ) from None


def call_with_batch(function, in_arrays, *leading):
    """Call ``function(*leading, ...)`` with a converted batch: a tuple is
    spread as positional arguments, a dict as keyword arguments, anything
    else is passed as one argument."""
    if isinstance(in_arrays, tuple):
        return function(*leading, *in_arrays)
    if isinstance(in_arrays, dict):
        return function(*leading, **in_arrays)
    return function(*leading, in_arrays)


class StandardUpdater(updater_module.Updater):
    """Updater that does one optimizer step on one batch per update.

    Each update takes a batch from the ``'main'`` iterator, converts it with
    ``converter`` onto ``device``, and calls
    ``optimizer.update(loss_func, *arrays)`` on the ``'main'`` optimizer
    (``loss_func`` defaults to the optimizer's target link).

    Args:
        iterator: An iterator, or a dict of them with a ``'main'`` one.
        optimizer: An optimizer, or a dict of them with a ``'main'`` one.
        converter: Makes arrays from a batch (default
            :func:`~kusari.datasets.concat_examples`).
        device: Device specifier: the models are sent there and the batches
            converted onto it. None leaves both where they are.
        loss_func: Loss function; None uses the target link of the main
            optimizer.
        loss_scale (float): Loss scaling factor set on the optimizers.
        auto_new_epoch (bool): Call ``optimizer.new_epoch(auto=True)`` when
            the main iterator starts a new epoch.
        input_device: Where batches are sent, if not ``device``.

    Attributes:
        iteration (int): Number of updates done.
        converter, device, input_device, loss_func, auto_new_epoch: The
            arguments of the same names.
    """

    def __init__(self, iterator, optimizer,
                 converter=convert.concat_examples, device=None,
                 loss_func=None, loss_scale=None, auto_new_epoch=True,
                 **kwargs):
        caller = type(self).__name__
        input_device = kwargs.pop('input_device', None)
        if kwargs:
            raise TypeError(f'{caller}: unexpected keyword argument(s) '
                            f'{", ".join(sorted(kwargs))}')
        iterators = _named(caller, 'iterators', iterator)
        optimizers = _named(caller, 'optimizers', optimizer,
                            main_required=False)
        if not callable(converter):
            raise TypeError(f'{caller}: converter must be callable, got '
                            f'{type(converter).__name__}')
        if loss_func is not None and not callable(loss_func):
            raise TypeError(f'{caller}: loss_func must be callable or None, '
                            f'got {type(loss_func).__name__}')
        if device is not None:
            device = backend.get_device(device)
        if input_device is not None:
            input_device = backend.get_device(input_device)
        if device is not None:
            for opt in optimizers.values():
                opt.target.to_device(device)
        if loss_scale is not None:
            for opt in optimizers.values():
                opt.set_loss_scale(loss_scale)
        self._iterators = iterators
        self._optimizers = optimizers
        self.converter = converter
        self.device = device
        self.input_device = device if input_device is None else input_device
        self.loss_func = loss_func
        self.auto_new_epoch = auto_new_epoch
        self.iteration = 0
        if auto_new_epoch:
            for opt in optimizers.values():
                opt.use_auto_new_epoch = True

    @property
    def epoch(self):
        """Number of epochs completed by the main iterator."""
        return self._iterators['main'].epoch

    @property
    def epoch_detail(self):
        """Epochs done by the main iterator, with the fraction of the
        current one."""
        return self._iterators['main'].epoch_detail

    @property
    def previous_epoch_detail(self):
        """``epoch_detail`` before the last update (None before the
        first)."""
        return self._iterators['main'].previous_epoch_detail

    @property
    def is_new_epoch(self):
        """Whether the last update completed an epoch."""
        return self._iterators['main'].is_new_epoch

    def finalize(self):
        """Finalize every iterator."""
        for iterator in self._iterators.values():
            iterator.finalize()

    def get_optimizer(self, name):
        """The optimizer registered as ``name``."""
        return self._optimizers[name]

    def get_all_optimizers(self):
        """A dict of every optimizer by name."""
        return dict(self._optimizers)

    def get_iterator(self, name):
        """The iterator registered as ``name``."""
        return self._iterators[name]

    def update(self):
        """Do one update (:meth:`update_core`) and count it."""
        self.update_core()
        self.iteration += 1

    def update_core(self):
        """Take a batch from the main iterator and do one optimizer step."""
        optimizer = self._optimizers.get('main')
        if optimizer is None:
            raise ValueError(
                f"{type(self).__name__}.update_core: no 'main' optimizer "
                f'(got {sorted(self._optimizers)}); name one \'main\' or '
                f'override update_core')
        iterator = self._iterators['main']
        batch = _next_batch(type(self).__name__, 'main', iterator)
        in_arrays = convert.call_converter(self.converter, batch,
                                           self.input_device)
        loss_func = self.loss_func or optimizer.target
        call_with_batch(optimizer.update, in_arrays, loss_func)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def serialize(self, serializer):
        """Save or load the iterators (``iterator:<name>``), optimizers
        (``optimizer:<name>``), their models (``model:<name>``) and the
        iteration count."""
        for name, iterator in self._iterators.items():
            iterator.serialize(serializer['iterator:' + name])
        for name, optimizer in self._optimizers.items():
            optimizer.serialize(serializer['optimizer:' + name])
            optimizer.target.serialize(serializer['model:' + name])
        iteration = serializer('iteration', self.iteration)
        if iteration is not None:  # None from a serializer that only records
            self.iteration = int(iteration)
