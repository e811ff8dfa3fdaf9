"""The workload of core_overhead.py in PyTorch.

Prints one JSON line (see _timing.py for the workload).
"""
import torch

from _timing import BLOCKS, inputs, report


def chain(x, w, b):
    h = x
    for _ in range(BLOCKS):
        h = torch.exp(torch.tanh(h * w + b))
    return h.sum()


def main():
    params = [torch.tensor(a, requires_grad=True) for a in inputs()]

    def forward():
        chain(*params)

    def forward_backward():
        for param in params:
            param.grad = None
        chain(*params).backward()

    def no_graph_forward():
        with torch.no_grad():
            chain(*params)

    report(f'torch {torch.__version__}',
           {'forward': forward, 'forward_backward': forward_backward,
            'no_graph_forward': no_graph_forward})


if __name__ == '__main__':
    main()
