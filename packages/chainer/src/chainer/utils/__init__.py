"""Utilities: ``chainer.utils.type_check`` and array helpers."""
import warnings

from chainer.utils import type_check  # NOQA
from kusari.autograd.utils.array import force_array  # NOQA
from kusari.autograd.utils.array import force_type  # NOQA
from kusari.autograd.utils.conv import get_conv_outsize  # NOQA
from kusari.autograd.utils.conv import get_deconv_outsize  # NOQA
from kusari.autograd.utils.sparse import CooMatrix  # NOQA
from kusari.autograd.utils.sparse import to_coo  # NOQA
from kusari.autograd.utils.walker_alias import WalkerAlias  # NOQA


def experimental(api_name):
    """Warn that ``api_name`` is experimental (a FutureWarning, as Chainer
    does); ``chainer.disable_experimental_feature_warning = True`` silences
    it."""
    import chainer
    if not getattr(chainer, 'disable_experimental_feature_warning', False):
        warnings.warn(
            f'{api_name} is experimental. The interface can change in the '
            f'future.', FutureWarning, stacklevel=2)
