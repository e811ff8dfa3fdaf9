"""Backends: ``chainer.backends.cuda`` (CuPy) and the iDeep stand-in."""
from chainer.backends import cuda  # NOQA
from chainer.backends import intel64  # NOQA
