"""A small residual CNN with batch normalization, through the Chainer API
alone: iterations/s.

3x32x32 inputs, batch 32: conv 3x3 (32) + BN + relu, two residual blocks
of [conv 3x3 + BN + relu, conv 3x3 + BN] + identity, relu, global average
pooling, linear 10; softmax cross-entropy, MomentumSGD. 3x3 convolutions
dominate, as in the CNNs users train on CPUs.
"""
import chainer
import chainer.functions as F
import chainer.links as L

from _workload import (CIFAR_IMAGE, N_CLASS, RESNET_BATCH, RESNET_CHANNELS,
                       classification_batch, parse_quick,
                       report_chainer_classifier)


class ConvBN(chainer.Chain):

    def __init__(self, in_channels, out_channels):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(in_channels, out_channels, 3, pad=1,
                                        nobias=True)
            self.bn = L.BatchNormalization(out_channels)

    def forward(self, x):
        return self.bn(self.conv(x))


class Block(chainer.Chain):

    def __init__(self, channels):
        super().__init__()
        with self.init_scope():
            self.a = ConvBN(channels, channels)
            self.b = ConvBN(channels, channels)

    def forward(self, x):
        return F.relu(x + self.b(F.relu(self.a(x))))


class ResNet(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.stem = ConvBN(CIFAR_IMAGE[0], RESNET_CHANNELS)
            self.block1 = Block(RESNET_CHANNELS)
            self.block2 = Block(RESNET_CHANNELS)
            self.fc = L.Linear(RESNET_CHANNELS, N_CLASS)

    def forward(self, x):
        h = self.block2(self.block1(F.relu(self.stem(x))))
        return self.fc(F.mean(h, axis=(2, 3)))


def main():
    quick = parse_quick(__doc__.split('\n')[0])
    report_chainer_classifier(
        chainer, 'resnet_bn', ResNet(), chainer.optimizers.MomentumSGD(),
        classification_batch(RESNET_BATCH, CIFAR_IMAGE), quick)


if __name__ == '__main__':
    main()
