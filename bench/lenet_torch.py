"""The workload of lenet.py in PyTorch: iterations/s."""
import torch
import torch.nn.functional as F
from torch import nn

from _workload import (IMAGE, LENET_BATCH, N_CLASS, classification_batch,
                       parse_quick, report_torch_classifier)


class LeNet(nn.Module):

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 20, 5)
        self.conv2 = nn.Conv2d(20, 50, 5)
        self.fc1 = nn.Linear(50 * 4 * 4, 500)
        self.fc2 = nn.Linear(500, N_CLASS)

    def forward(self, x):
        h = F.max_pool2d(self.conv1(x), 2)
        h = F.max_pool2d(self.conv2(h), 2)
        return self.fc2(F.relu(self.fc1(h.flatten(1))))


def main():
    quick = parse_quick(__doc__.split('\n')[0])
    model = LeNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    batch = [torch.from_numpy(a)
             for a in classification_batch(LENET_BATCH, IMAGE)]
    report_torch_classifier(torch, 'lenet', model, optimizer, batch, quick)


if __name__ == '__main__':
    main()
