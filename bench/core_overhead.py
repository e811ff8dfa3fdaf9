"""Per-op overhead of a chain of small ops, through the Chainer API alone.

Only ``chainer`` is used, so the same script times Kusari's drop-in and
Chainer 7.8.1; whichever ``chainer`` the interpreter imports is measured.
Prints one JSON line (see _timing.py for the workload). With ``--static``
the chain is the forward of a Chain marked with ``chainer.static_graph``
(w and b its parameters, x its argument).
"""
import argparse

import chainer
import chainer.functions as F

from _timing import BLOCKS, inputs, report
from _workload import chainer_measured


def chain(x, w, b):
    h = x
    for _ in range(BLOCKS):
        h = F.exp(F.tanh(h * w + b))
    return F.sum(h)


class StaticChain(chainer.Chain):

    def __init__(self, w, b):
        super().__init__()
        with self.init_scope():
            self.w = chainer.Parameter(w)
            self.b = chainer.Parameter(b)

    @chainer.static_graph
    def forward(self, x):
        return chain(x, self.w, self.b)


def dynamic_steps():
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

    return forward, forward_backward, no_graph_forward


def static_steps():
    x, w, b = inputs()
    model = StaticChain(w, b)
    x = chainer.Variable(x)

    def forward():
        model(x)
        # A forward pass without backward ends here: the next call may
        # take the same schedule.
        model.schedule_manager.end_forward()

    def forward_backward():
        model.cleargrads()
        x.cleargrad()
        model(x).backward()

    def no_graph_forward():
        with chainer.no_backprop_mode():
            model(x)

    return forward, forward_backward, no_graph_forward


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--static', action='store_true',
                        help='the chain as a static_graph Chain')
    static = parser.parse_args().static
    forward, forward_backward, no_graph_forward = (
        static_steps() if static else dynamic_steps())
    report(chainer_measured(chainer) + (' static_graph' if static else ''),
           {'forward': forward, 'forward_backward': forward_backward,
            'no_graph_forward': no_graph_forward})


if __name__ == '__main__':
    main()
