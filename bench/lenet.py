"""LeNet training steps through the Chainer API alone: iterations/s.

conv 5x5x20, max-pool 2, conv 5x5x50, max-pool 2, linear 500, relu,
linear 10 on 1x28x28 inputs, batch 64, softmax cross-entropy, MomentumSGD.
Whichever ``chainer`` the interpreter imports is measured.
"""
import chainer
import chainer.functions as F
import chainer.links as L

from _workload import (IMAGE, LENET_BATCH, N_CLASS, classification_batch,
                       parse_quick, report_chainer_classifier)


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
    quick = parse_quick(__doc__.split('\n')[0])
    report_chainer_classifier(
        chainer, 'lenet', LeNet(), chainer.optimizers.MomentumSGD(),
        classification_batch(LENET_BATCH, IMAGE), quick)


if __name__ == '__main__':
    main()
