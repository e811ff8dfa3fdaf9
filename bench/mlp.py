"""MLP training steps through the Chainer API alone: iterations/s.

784-1000-1000-10 with relu, batch 100, softmax cross-entropy, Adam;
``--static``: the model's forward marked with ``chainer.static_graph``.
Whichever ``chainer`` the interpreter imports is measured; trainer.py
trains the same model through the Trainer.
"""
import chainer
import chainer.functions as F
import chainer.links as L

from _workload import (MLP_BATCH, MLP_UNITS, chainer_measured,
                       classification_batch, parse_options, report_iterations,
                       static_variant, training_step, workload_name)


class MLP(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(*MLP_UNITS[0:2])
            self.l2 = L.Linear(*MLP_UNITS[1:3])
            self.l3 = L.Linear(*MLP_UNITS[2:4])

    def forward(self, x):
        h = F.relu(self.l1(x))
        return self.l3(F.relu(self.l2(h)))


def setup(static=False):
    """The model (with a static forward if ``static``), its Adam, and the
    loss function of (x, t)."""
    model = static_variant(chainer, MLP)() if static else MLP()
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    def loss(x, t):
        return F.softmax_cross_entropy(model(x), t)

    return model, optimizer, loss


def main():
    options = parse_options(__doc__.split('\n')[0], static=True)
    model, optimizer, loss_of = setup(options.static)
    step = training_step(
        loss_of, classification_batch(MLP_BATCH, MLP_UNITS[:1]),
        model.cleargrads, optimizer.update)
    report_iterations(chainer_measured(chainer),
                      workload_name('mlp', options.static), step,
                      options.quick)


if __name__ == '__main__':
    main()
