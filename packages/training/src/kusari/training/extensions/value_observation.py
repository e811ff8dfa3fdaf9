"""Reporting a value computed from the trainer."""
from kusari.links import reporter
from kusari.training import extension


def observe_value(observation_key, target_func):
    """Return an extension that reports ``target_func(trainer)`` as
    ``observation_key``, every epoch by default.

    Args:
        observation_key (str): Key of the reported value.
        target_func (callable): Takes the trainer, returns the value.
    """
    if not callable(target_func):
        raise TypeError(f'observe_value: target_func must be callable, got '
                        f'{type(target_func).__name__}')

    @extension.make_extension(trigger=(1, 'epoch'),
                              priority=extension.PRIORITY_WRITER)
    def _observe_value(trainer):
        reporter.report({observation_key: target_func(trainer)})

    return _observe_value


def observe_lr(optimizer_name='main', observation_key='lr'):
    """Return an extension that reports the ``lr`` of the optimizer
    ``optimizer_name`` as ``observation_key``, every epoch by default."""
    return observe_value(
        observation_key,
        lambda trainer: trainer.updater.get_optimizer(optimizer_name).lr)
