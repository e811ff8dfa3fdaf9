"""Arguments given as an int or as one int per axis (``stride=2`` or
``stride=(2, 1)``), checked and expanded to a tuple: the convolution and
pooling functions and the layers built on them read theirs this way."""
import operator


def expand(func_name, name, value, ndim, minimum):
    """``value`` (an int, or a sequence of ``ndim`` ints, each at least
    ``minimum`` unless that is None) as a tuple of ``ndim`` ints.

    Args:
        func_name (str): The function or layer the argument is given to,
            named by the error.
        name (str): The argument's name (``'stride'``).
        value: An int (a bool is refused), or a tuple or list of ints.
        ndim (int): How many ints the tuple holds.
        minimum (int or None): The least value allowed; None for any.

    Returns:
        tuple of int: ``ndim`` ints.

    Raises:
        TypeError: ``value`` is not an int or a sequence of ``ndim`` ints.
        ValueError: An int is below ``minimum``.
    """
    try:
        if isinstance(value, (tuple, list)):
            values = tuple(operator.index(v) for v in value)
        else:
            values = (operator.index(value),) * ndim
    except TypeError:
        values = None
    if values is None or len(values) != ndim or isinstance(value, bool):
        raise TypeError(
            f'{func_name}: {name} must be an int or a sequence of {ndim} '
            f'ints; got {value!r}')
    if minimum is not None and any(v < minimum for v in values):
        raise ValueError(
            f'{func_name}: {name} must be at least {minimum}; got {value!r}')
    return values
