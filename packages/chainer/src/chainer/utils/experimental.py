"""Marking an API as experimental."""
import warnings


def experimental(api_name):
    """Warn that ``api_name`` is experimental (a FutureWarning, as Chainer
    does); ``chainer.disable_experimental_feature_warning = True`` silences
    it."""
    import chainer
    if not chainer.disable_experimental_feature_warning:
        warnings.warn(
            f'{api_name} is experimental. The interface can change in the '
            f'future.', FutureWarning, stacklevel=2)
