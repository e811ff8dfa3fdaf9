"""The workload of mlp.py in PyTorch: iterations/s."""
import torch
import torch.nn.functional as F
from torch import nn

from _workload import (MLP_BATCH, MLP_UNITS, classification_batch,
                       parse_quick, report_iterations, training_step)


def main():
    quick = parse_quick(__doc__.split('\n')[0])
    model = nn.Sequential(
        nn.Linear(*MLP_UNITS[0:2]), nn.ReLU(),
        nn.Linear(*MLP_UNITS[1:3]), nn.ReLU(),
        nn.Linear(*MLP_UNITS[2:4]))
    optimizer = torch.optim.Adam(model.parameters())
    x, t = (torch.from_numpy(a) for a in
            classification_batch(MLP_BATCH, MLP_UNITS[:1]))
    step = training_step(lambda x, t: F.cross_entropy(model(x), t),
                         (x, t.long()), optimizer.zero_grad, optimizer.step)
    report_iterations(f'torch {torch.__version__}', 'mlp', step, quick)


if __name__ == '__main__':
    main()
