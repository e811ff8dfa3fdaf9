"""Per-op overhead of a chain of small ops, through the Chainer API alone.

Only ``chainer`` is used, so the same script times Kusari's drop-in and
Chainer 7.8.1; whichever ``chainer`` the interpreter imports is measured.
Prints one JSON line (see _timing.py for the workload).
"""
import chainer
import chainer.functions as F

from _timing import BLOCKS, inputs, report
from _workload import chainer_measured


def chain(x, w, b):
    h = x
    for _ in range(BLOCKS):
        h = F.exp(F.tanh(h * w + b))
    return F.sum(h)


def main():
    params = [chainer.Variable(a) for a in inputs()]

    def forward():
        chain(*params)

    def forward_backward():
        for param in params:
            param.cleargrad()
        chain(*params).backward()

    def no_graph_forward():
        with chainer.no_backprop_mode():
            chain(*params)

    report(chainer_measured(chainer),
           {'forward': forward, 'forward_backward': forward_backward,
            'no_graph_forward': no_graph_forward})


if __name__ == '__main__':
    main()
