"""Stopping training when the parameters diverge."""
from kusari.training import extension


class FailOnNonNumber(extension.Extension):
    """Trainer extension that raises RuntimeError when a parameter of an
    optimizer's target holds NaN or infinity (as after a non-finite loss).

    Added with its default trigger it checks every iteration, so training
    stops before a diverged model is saved or logged further.
    """

    def __call__(self, trainer):
        for name, optimizer in \
                trainer.updater.get_all_optimizers().items():
            target = optimizer.target
            for path, param in target.namedparams():
                array = param.array
                if array is None:
                    continue
                xp = param.xp
                if not xp.isfinite(array).all():
                    raise RuntimeError(
                        f'FailOnNonNumber: the parameter {path} of the '
                        f'optimizer {name!r} holds NaN or infinity at '
                        f'iteration {trainer.updater.iteration}: training '
                        f'diverged (a non-finite loss or gradient); kill '
                        f'the process. R.I.P.')
