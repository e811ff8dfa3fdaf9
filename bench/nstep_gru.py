"""A 2-layer GRU over a batch of variable-length sequences, through the
Chainer API alone: iterations/s.

NStepGRU(2 layers, 64 -> 128) over 32 sequences of 10 to 40 steps, the
last layer's final state through linear 10; softmax cross-entropy, Adam.
"""
import chainer
import chainer.links as L

from _workload import (GRU_IN, GRU_LAYERS, GRU_UNITS, N_CLASS, parse_quick,
                       report_chainer_classifier, sequences)


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
    report_chainer_classifier(chainer, 'nstep_gru', Classifier(),
                              chainer.optimizers.Adam(), sequences(), quick)


if __name__ == '__main__':
    main()
