"""Moving axes to new positions."""
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array.swapaxes import permute
from kusari.autograd.utils import type_check


@type_check.checks_inputs
def moveaxis(x, source, destination):
    """Move axes of ``x`` to new positions, the others keeping their
    order, as ``numpy.moveaxis``.

    Args:
        x: Variable or array.
        source: an int or a sequence of distinct ints: the axes to move.
        destination: as many ints: where they go.

    Returns:
        Variable with the axes moved.
    """
    source = _axes.normalize_axes('moveaxis', 'source', source, x.ndim)
    destination = _axes.normalize_axes('moveaxis', 'destination',
                                       destination, x.ndim)
    if len(source) != len(destination):
        raise ValueError(f'moveaxis: source and destination must have '
                         f'the same number of axes; got {source} and '
                         f'{destination}')
    order = [a for a in range(x.ndim) if a not in source]
    for dst, src in sorted(zip(destination, source)):
        order.insert(dst, src)
    return permute(x, order)
