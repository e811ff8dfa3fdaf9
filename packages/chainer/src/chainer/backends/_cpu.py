"""Chainer's CPU backend module (``chainer.backends._cpu``): its device
class and its host transfer, which code written for Chainer imports from
here."""
from kusari.array.backend import CpuDevice  # NOQA: F401
from kusari.array.cuda import to_cpu as _to_cpu  # NOQA: F401
