"""The workload of nstep_gru.py in PyTorch: iterations/s."""
import torch
from torch import nn
from torch.nn.utils.rnn import pack_sequence

from _workload import (GRU_IN, GRU_LAYERS, GRU_UNITS, N_CLASS, parse_quick,
                       report_torch_classifier, sequences)


class Classifier(nn.Module):

    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(GRU_IN, GRU_UNITS, GRU_LAYERS)
        self.fc = nn.Linear(GRU_UNITS, N_CLASS)

    def forward(self, xs):
        _, hy = self.gru(pack_sequence(xs, enforce_sorted=False))
        return self.fc(hy[-1])


def main():
    quick = parse_quick(__doc__.split('\n')[0])
    model = Classifier()
    optimizer = torch.optim.Adam(model.parameters())
    xs, t = sequences()
    batch = ([torch.from_numpy(x) for x in xs], torch.from_numpy(t))
    report_torch_classifier(torch, 'nstep_gru', model, optimizer, batch,
                            quick)


if __name__ == '__main__':
    main()
