"""Utilities: ``chainer.utils.type_check``, array helpers and
:func:`tempdir`."""
import contextlib
import shutil
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


@contextlib.contextmanager
def tempdir(ignore_errors=False, **kwargs):
    """A temporary directory for the ``with`` block: its path is given, and
    it is removed with its contents at the end. ``kwargs`` go to
    :func:`tempfile.mkdtemp` (``suffix``, ``prefix``, ``dir``)."""
    path = tempfile.mkdtemp(**kwargs)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=ignore_errors)
