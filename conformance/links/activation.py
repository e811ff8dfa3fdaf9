"""Records of the activation layers with parameters."""
import numpy

from harness.link_record import link_record
from kusari.autograd import functions as F
from kusari.links import layers as L
from links.connection import absent
from links.connection import given
from links.connection import on
from links.connection import uniform
from links.connection import zero_bias

_NO_LAZY = 'the shape of W is an argument; there is no lazy form'
# Maxout's weight (out_size, pool_size, in_size) and bias (out_size,
# pool_size) given as arrays; out_size - pool_size is not -1, which
# reshape would read as 'the rest'.
_MAXOUT_W = numpy.linspace(-1, 1, 18).reshape(3, 2, 3)
_MAXOUT_B = numpy.linspace(-0.5, 0.5, 6).reshape(3, 2)

link_record(
    # W starts at 0.25.
    'PReLU', lambda: L.PReLU(shape=(3,)), uniform((2, 3, 2)),
    lambda link, x: F.prelu(x, on(link, [0.25] * 3)), reason=_NO_LAZY)
link_record(
    # By default one slope for every unit.
    'PReLU:default', lambda: L.PReLU(), uniform((2, 3)),
    lambda link, x: F.prelu(x, on(link, 0.25)), reason=_NO_LAZY)
link_record(
    'PReLU:init', lambda: L.PReLU((3,), init=given([0.5, -0.5, 2])),
    uniform((2, 3, 2)),
    lambda link, x: F.prelu(x, on(link, [0.5, -0.5, 2])), reason=_NO_LAZY)
link_record(
    # beta starts at one.
    'Swish', lambda: L.Swish((3, 2)), uniform((2, 3, 2)),
    lambda link, x: F.swish(x, link.xp.ones((3, 2), x.dtype)),
    lazy=lambda: L.Swish(None))
link_record(
    'Swish:beta_init', lambda: L.Swish((3,), beta_init=0.5),
    uniform((2, 3)), lambda link, x: F.swish(x, on(link, [0.5] * 3)),
    lazy=lambda: L.Swish(None, beta_init=0.5))
link_record(
    'Maxout', lambda: L.Maxout(3, 2, 3), uniform((2, 3)),
    lambda link, x: F.maxout(F.linear(x, link.linear.W.array,
                                      zero_bias(link.linear)), 3),
    lazy=lambda: L.Maxout(None, 2, 3))
link_record(
    'Maxout:initializers',
    lambda: L.Maxout(3, 3, 2, initialW=given(_MAXOUT_W),
                     initial_bias=given(_MAXOUT_B)),
    uniform((2, 3)),
    lambda link, x: F.maxout(F.linear(x, on(link, _MAXOUT_W.reshape(6, 3)),
                                      on(link, _MAXOUT_B.reshape(6))), 2),
    reason='an array initialW has the shape (out_size, pool_size, '
           'in_size); there is no lazy form')
link_record(
    'Maxout:nobias', lambda: L.Maxout(3, 2, 3, initial_bias=None),
    uniform((2, 3)),
    lambda link, x: F.maxout(F.linear(x, link.linear.W.array,
                                      absent(link.linear.b)), 3),
    lazy=lambda: L.Maxout(None, 2, 3, initial_bias=None))
