"""Shared pieces of the trainer tests: a tiny MLP and its data."""
import numpy

from kusari.autograd import functions as F
from kusari.autograd import variable
from kusari.datasets import iterators
from kusari.links import Chain, Classifier, reporter
from kusari.training import StandardUpdater, Trainer, optimizers


class Linear(Chain):
    """``x W^T + b`` with fixed, seeded initial values."""

    def __init__(self, n_in, n_out, seed):
        super().__init__()
        rng = numpy.random.RandomState(seed)
        with self.init_scope():
            self.W = variable.Parameter(
                rng.normal(0, n_in ** -0.5, (n_out, n_in)).astype('f'))
            self.b = variable.Parameter(numpy.zeros(n_out, 'f'))

    def forward(self, x):
        return F.linear(x, self.W, self.b)


class MLP(Chain):
    def __init__(self, n_in=4, n_hidden=8, n_out=3, seed=0):
        super().__init__()
        with self.init_scope():
            self.l1 = Linear(n_in, n_hidden, seed)
            self.l2 = Linear(n_hidden, n_out, seed + 1)

    def forward(self, x):
        y = self.l2(F.relu(self.l1(x)))
        reporter.report({'sum_y': F.sum(y)}, self)
        return y


def dataset(size=32, n_in=4, n_out=3, seed=1):
    rng = numpy.random.RandomState(seed)
    x = rng.normal(size=(size, n_in)).astype('f')
    t = (x[:, 0] > 0).astype(numpy.int32) + (x[:, 1] > 0)
    return list(zip(x, t.astype(numpy.int32)[:, None].ravel() % n_out))


def make_trainer(out, stop_trigger=(20, 'iteration'), batch_size=8,
                 extensions=(), size=32, shuffle=False):
    model = Classifier(MLP())
    optimizer = optimizers.MomentumSGD(lr=0.05)
    optimizer.setup(model)
    iterator = iterators.SerialIterator(dataset(size), batch_size,
                                        shuffle=shuffle)
    updater = StandardUpdater(iterator, optimizer)
    trainer = Trainer(updater, stop_trigger, out=str(out))
    for extension in extensions:
        trainer.extend(extension)
    return trainer


def params(link):
    return {path: param.array.copy() for path, param in link.namedparams()}
