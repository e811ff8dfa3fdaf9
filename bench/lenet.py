"""LeNet training steps through the Chainer API alone: iterations/s.

conv 5x5x20, max-pool 2, conv 5x5x50, max-pool 2, linear 500, relu,
linear 10 on 1x28x28 inputs, batch 64, softmax cross-entropy, MomentumSGD;
``--static``: the model's forward marked with ``chainer.static_graph``.
Whichever ``chainer`` the interpreter imports is measured.
"""
import chainer
import chainer.functions as F
import chainer.links as L

from _workload import (IMAGE, LENET_BATCH, N_CLASS, classification_batch,
                       parse_options, report_chainer_classifier,
                       static_variant, workload_name)


class LeNet(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(1, 20, 5)
            self.conv2 = L.Convolution2D(20, 50, 5)
            self.fc1 = L.Linear(50 * 4 * 4, 500)
            self.fc2 = L.Linear(500, N_CLASS)

    def forward(self, x):
        h = F.max_pooling_2d(self.conv1(x), 2)
        h = F.max_pooling_2d(self.conv2(h), 2)
        return self.fc2(F.relu(self.fc1(h)))


def main():
    options = parse_options(__doc__.split('\n')[0], static=True)
    model = static_variant(chainer, LeNet)() if options.static else LeNet()
    report_chainer_classifier(
        chainer, workload_name('lenet', options.static), model,
        chainer.optimizers.MomentumSGD(),
        classification_batch(LENET_BATCH, IMAGE), options.quick)


if __name__ == '__main__':
    main()
