"""The workload of resnet_bn.py in PyTorch: iterations/s."""
import torch
import torch.nn.functional as F
from torch import nn

from _workload import (CIFAR_IMAGE, N_CLASS, RESNET_BATCH, RESNET_CHANNELS,
                       classification_batch, parse_quick,
                       report_torch_classifier)


def conv_bn(in_channels, out_channels):
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, 3, padding=1, bias=False),
        nn.BatchNorm2d(out_channels))


class Block(nn.Module):

    def __init__(self, channels):
        super().__init__()
        self.a = conv_bn(channels, channels)
        self.b = conv_bn(channels, channels)

    def forward(self, x):
        return F.relu(x + self.b(F.relu(self.a(x))))


class ResNet(nn.Module):

    def __init__(self):
        super().__init__()
        self.stem = conv_bn(CIFAR_IMAGE[0], RESNET_CHANNELS)
        self.block1 = Block(RESNET_CHANNELS)
        self.block2 = Block(RESNET_CHANNELS)
        self.fc = nn.Linear(RESNET_CHANNELS, N_CLASS)

    def forward(self, x):
        h = self.block2(self.block1(F.relu(self.stem(x))))
        return self.fc(h.mean(dim=(2, 3)))


def main():
    quick = parse_quick(__doc__.split('\n')[0])
    model = ResNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    batch = [torch.from_numpy(a)
             for a in classification_batch(RESNET_BATCH, CIFAR_IMAGE)]
    report_torch_classifier(torch, 'resnet_bn', model, optimizer, batch,
                            quick)


if __name__ == '__main__':
    main()
