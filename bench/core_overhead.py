"""Per-op overhead of a chain of small ops, through the Chainer API alone.

Only ``chainer`` is used, so the same script times Kusari's drop-in and
Chainer 7.8.1; whichever ``chainer`` the interpreter imports is measured.
Prints one JSON line (see _timing.py for the workload).
"""
from importlib import metadata

import chainer
import chainer.functions as F

from _timing import BLOCKS, inputs, report


def chain(x, w, b):
    h = x
    for _ in range(BLOCKS):
        h = F.exp(F.tanh(h * w + b))
    return F.sum(h)


def _measured():
    """What ``chainer`` is: Kusari's drop-in and Chainer both say 7.8.1."""
    distributions = metadata.packages_distributions().get('chainer', [])
    if len(distributions) == 1:
        name, = distributions
        return f'{name} {metadata.version(name)}'
    # An editable install is known by its path alone.
    return f'chainer {chainer.__version__} at {chainer.__file__}'


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

    report(_measured(),
           {'forward': forward, 'forward_backward': forward_backward,
            'no_graph_forward': no_graph_forward})


if __name__ == '__main__':
    main()
