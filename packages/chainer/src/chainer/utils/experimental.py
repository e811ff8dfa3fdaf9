"""Marking an API as experimental."""
import warnings

# The chainer module, on which users set disable_experimental_feature_warning;
# chainer's __init__ hands it over with read_flag_from() (it imports this
# module, so this one cannot import it).
_flag_holder = None


def read_flag_from(module):
    """Read ``disable_experimental_feature_warning`` from ``module`` at
    every call of :func:`experimental` (called once, by ``chainer``)."""
    global _flag_holder
    _flag_holder = module


def experimental(api_name):
    """Warn that ``api_name`` is experimental (a FutureWarning, as Chainer
    does); ``chainer.disable_experimental_feature_warning = True`` silences
    it."""
    if not _flag_holder.disable_experimental_feature_warning:
        warnings.warn(
            f'{api_name} is experimental. The interface can change in the '
            f'future.', FutureWarning, stacklevel=2)
