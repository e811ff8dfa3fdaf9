"""A 2-layer GRU over a batch of variable-length sequences, through the
Chainer API alone: iterations/s.

NStepGRU(2 layers, 64 -> 128) over 32 sequences of 10 to 40 steps, the
last layer's final state through linear 10; softmax cross-entropy, Adam.
"""
import chainer
import chainer.functions as F
import chainer.links as L

from _workload import (GRU_IN, GRU_LAYERS, GRU_UNITS, N_CLASS,
                       chainer_measured, parse_quick, report_iterations,
                       sequences, training_step)


class Classifier(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.gru = L.NStepGRU(GRU_LAYERS, GRU_IN, GRU_UNITS, 0.0)
            self.fc = L.Linear(GRU_UNITS, N_CLASS)

    def forward(self, xs):
        hy, _ = self.gru(None, xs)
        return self.fc(hy[-1])


def main():
    quick = parse_quick(__doc__.split('\n')[0])
    model = Classifier()
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)
    step = training_step(
        lambda xs, t: F.softmax_cross_entropy(model(xs), t), sequences(),
        model.cleargrads, optimizer.update)
    report_iterations(chainer_measured(chainer), 'nstep_gru', step, quick)


if __name__ == '__main__':
    main()
