"""Utilities: ``chainer.utils.type_check`` and array helpers."""
import tempfile

from chainer.utils import type_check  # NOQA
from chainer.utils.experimental import experimental  # NOQA
from kusari.autograd.utils.array import force_array  # NOQA
from kusari.autograd.utils.array import force_type  # NOQA
from kusari.autograd.utils.array import size_of_shape  # NOQA
from kusari.autograd.utils.conv import get_conv_outsize  # NOQA
from kusari.autograd.utils.conv import get_deconv_outsize  # NOQA
from kusari.autograd.utils.sparse import CooMatrix  # NOQA
from kusari.autograd.utils.sparse import to_coo  # NOQA
from kusari.autograd.utils.walker_alias import WalkerAlias  # NOQA


def tempdir(ignore_errors=False, **kwargs):
    """A context manager making a temporary directory and removing it at
    exit; ``with tempdir() as path``. ``kwargs`` go to
    :func:`tempfile.mkdtemp` (``suffix``, ``prefix``, ``dir``);
    ``ignore_errors`` ignores failures to remove it."""
    return tempfile.TemporaryDirectory(ignore_cleanup_errors=ignore_errors,
                                       **kwargs)
