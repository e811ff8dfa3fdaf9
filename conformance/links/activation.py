"""Records of the activation layers with parameters."""
from harness.link_record import link_record
from kusari.autograd import functions as F
from kusari.links import layers as L
from links.connection import linear
from links.connection import uniform

link_record(
    'PReLU', lambda: L.PReLU(shape=(3,)), uniform((2, 3, 2)),
    lambda link, x: F.prelu(x, link.W.array),
    reason='the shape of W is an argument; there is no lazy form')
link_record(
    'Swish', lambda: L.Swish((3, 2)), uniform((2, 3, 2)),
    lambda link, x: F.swish(x, link.beta.array),
    lazy=lambda: L.Swish(None))
link_record(
    'Maxout', lambda: L.Maxout(3, 2, 3), uniform((2, 3)),
    lambda link, x: F.maxout(linear(x, link.linear), 3),
    lazy=lambda: L.Maxout(None, 2, 3))
