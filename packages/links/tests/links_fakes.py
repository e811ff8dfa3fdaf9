"""Small links the tests build models from: a Linear (W, b) written with
the autograd functions, and a Link holding a persistent array and scalar."""
import numpy

from kusari.autograd import Parameter
from kusari.autograd import functions as F
from kusari.array import initializers
from kusari.links import Chain, Link


class Linear(Link):
    """``y = x W^T + b``; ``in_size=None`` makes W lazy (its shape is
    known at the first call)."""

    def __init__(self, in_size, out_size, initialW=None, initial_bias=0):
        super().__init__()
        self.out_size = out_size
        with self.init_scope():
            self.W = Parameter(initializers.get_initializer(initialW))
            self.b = Parameter(initial_bias, (out_size,))
        if in_size is not None:
            self.W.initialize((out_size, in_size))

    @property
    def printable_specs(self):
        yield 'out_size', self.out_size

    def forward(self, x):
        if self.W.array is None:
            self.W.initialize((self.out_size, x.shape[1]))
        return F.matmul(x, self.W, transb=True) + self.b


class Counter(Link):
    """A link with persistents: an array and a scalar."""

    def __init__(self):
        super().__init__()
        self.add_persistent('total', numpy.zeros(3, numpy.float32))
        self.add_persistent('calls', 0)

    def forward(self, x):
        self.calls += 1
        return x


class MLP(Chain):
    def __init__(self, n_in=3, n_hidden=4, n_out=2):
        super().__init__()
        with self.init_scope():
            self.l1 = Linear(n_in, n_hidden)
            self.l2 = Linear(n_hidden, n_out)

    def forward(self, x):
        return self.l2(F.tanh(self.l1(x)))


class Model(Chain):
    """Nested: ``/predictor/l1``, ``/predictor/l2``, ``/counter``."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.predictor = MLP()
            self.counter = Counter()
            self.scale = Parameter(numpy.ones((), numpy.float32))

    def forward(self, x):
        return self.predictor(self.counter(x)) * self.scale
