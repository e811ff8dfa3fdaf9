"""Switches for recording the computational graph."""
from kusari.array.configuration import using_config


def no_backprop_mode():
    """Context in which function applications record no graph.

    Outputs computed inside carry no creator, so nothing can backpropagate
    through them; memory for the graph is saved::

        with chainer.no_backprop_mode():
            y = model(x)
    """
    return using_config('enable_backprop', False)


def force_backprop_mode():
    """Context in which the graph is recorded even inside no_backprop_mode."""
    return using_config('enable_backprop', True)
