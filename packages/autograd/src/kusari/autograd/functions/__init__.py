"""Differentiable functions (``chainer.functions``)."""
from kusari.autograd.functions.activation.tanh import tanh  # NOQA
from kusari.autograd.functions.array.broadcast import broadcast  # NOQA
from kusari.autograd.functions.array.broadcast import broadcast_to  # NOQA
from kusari.autograd.functions.array.broadcast import sum_to  # NOQA
from kusari.autograd.functions.array.cast import cast  # NOQA
from kusari.autograd.functions.array.get_item import get_item  # NOQA
from kusari.autograd.functions.array.reshape import reshape  # NOQA
from kusari.autograd.functions.array.transpose import transpose  # NOQA
from kusari.autograd.functions.math.basic_math import absolute  # NOQA
from kusari.autograd.functions.math.basic_math import add  # NOQA
from kusari.autograd.functions.math.exponential import exp  # NOQA
from kusari.autograd.functions.math.exponential import log  # NOQA
from kusari.autograd.functions.math.identity import identity  # NOQA
from kusari.autograd.functions.math.matmul import matmul  # NOQA
from kusari.autograd.functions.math.sum import sum  # NOQA
