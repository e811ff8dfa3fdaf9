"""Trainer extensions: what runs beside the updates in a training loop.

An extension is any callable taking the trainer. The trainer reads the
optional attributes ``trigger``, ``priority``, ``default_name`` (or
``name``), and the methods ``initialize(trainer)``, ``finalize()``,
``on_error(trainer, exc, tb)`` and ``serialize(serializer)`` where they
exist. :class:`Extension` gives all of them defaults;
:func:`make_extension` adds them to a function.
"""

PRIORITY_WRITER = 300
"""Priority of extensions that write into the observation (they run
first)."""
PRIORITY_EDITOR = 200
"""Priority of extensions that edit values already in the observation."""
PRIORITY_READER = 100
"""Priority of extensions that only read the observation (they run last);
the default."""

_REMOVED_INVOKE_BEFORE_TRAINING = (
    'invoke_before_training was removed in Chainer v2; use an initializer '
    '(or call_before_training=True in Trainer.extend) instead')


def check_no_removed_arguments(caller, kwargs):
    """Raise for arguments that were removed (ValueError, saying what
    replaces them) or never existed (TypeError)."""
    if 'invoke_before_training' in kwargs:
        raise ValueError(f'{caller}: {_REMOVED_INVOKE_BEFORE_TRAINING}')
    if kwargs:
        raise TypeError(f'{caller}: unexpected keyword argument(s) '
                        f'{", ".join(sorted(kwargs))}')


class Extension:
    """Base class of trainer extensions.

    Subclasses implement :meth:`__call__`. The class attributes are the
    defaults :meth:`Trainer.extend` uses when it is given none.

    Attributes:
        trigger: When to call the extension: a ``(period, unit)`` pair or a
            callable taking the trainer (default: every iteration).
        priority (int): Order among the extensions called at the same
            iteration; higher runs first (default :data:`PRIORITY_READER`).
        name (str): The name the trainer gave the extension (None before
            it is added to one).
    """

    trigger = 1, 'iteration'
    priority = PRIORITY_READER
    name = None

    @property
    def default_name(self):
        """The name used when none is given: the class name."""
        return type(self).__name__

    def __call__(self, trainer):
        raise NotImplementedError(
            f'{type(self).__name__} must implement __call__(trainer)')

    def initialize(self, trainer):
        """Called once before the training loop (and after a resume)."""

    def finalize(self):
        """Called once when the training loop ends, normally or not."""

    def on_error(self, trainer, exc, tb):
        """Called when the training loop raises ``exc`` (with traceback
        ``tb``), before :meth:`finalize`."""

    def serialize(self, serializer):
        """Save or load the state of the extension (nothing by default)."""


def make_extension(trigger=None, default_name=None, priority=None,
                   finalizer=None, initializer=None, on_error=None,
                   **kwargs):
    """Decorator that makes a function taking the trainer an extension.

    It sets the attributes an :class:`Extension` has on the function:
    ``trigger`` (default every iteration), ``default_name`` (default the
    function's name), ``priority`` (default :data:`PRIORITY_READER`), and
    ``finalize``, ``initialize``, ``on_error`` from ``finalizer``,
    ``initializer`` and ``on_error``.
    """
    check_no_removed_arguments('make_extension', kwargs)
    for name, hook in (('finalizer', finalizer),
                       ('initializer', initializer),
                       ('on_error', on_error)):
        if hook is not None and not callable(hook):
            raise TypeError(f'make_extension: {name} must be callable or '
                            f'None, got {type(hook).__name__}')

    def decorator(function):
        if not callable(function):
            raise TypeError(f'make_extension: expected a callable taking '
                            f'the trainer, got {type(function).__name__}')
        function.trigger = Extension.trigger if trigger is None else trigger
        function.default_name = default_name or function.__name__
        function.priority = (Extension.priority if priority is None
                             else priority)
        function.finalize = finalizer
        function.initialize = initializer
        function.on_error = on_error
        return function

    return decorator
