"""Utilities: ``chainer.utils.type_check`` and array helpers."""
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
