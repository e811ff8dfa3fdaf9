"""Helpers on rows, keys and columns shared by the tabular views."""
from kusari.datasets import _index


def rows(indices, length):
    """The rows that ``get_examples`` indices select: a range or a list."""
    if indices is None:
        return range(length)
    if isinstance(indices, slice):
        return range(length)[indices]
    return indices


def as_indices(selected):
    """A range as a slice (columns index it as a view), else unchanged."""
    if not isinstance(selected, range):
        return selected
    if not selected:
        return slice(0, 0)
    # A descending range down to row 0 stops at -1, which a slice would
    # read as "the last row".
    stop = selected.stop if selected.stop >= 0 else None
    return slice(selected.start, stop, selected.step)


def take(column, indices):
    """The rows of a column (list or array) at a slice or a position list."""
    if isinstance(column, (list, tuple)) and not isinstance(indices, slice):
        return [column[i] for i in indices]
    return column[indices]


def key_indices(dataset, keys):
    """The positions in ``dataset.keys`` of ``keys`` (names or positions)."""
    positions = []
    for key in keys:
        if isinstance(key, str):
            if key not in dataset.keys:
                raise KeyError(
                    f'{type(dataset).__name__}: no key {key!r}; the keys '
                    f'are {dataset.keys}')
            positions.append(dataset.keys.index(key))
        else:
            positions.append(
                _index.position(f'{type(dataset).__name__} keys', key,
                                len(dataset.keys)))
    if len(set(positions)) != len(positions):
        raise ValueError(
            f'{type(dataset).__name__}: keys {keys!r} name a column twice')
    return tuple(positions)


def check_new_keys(function, keys):
    """Raise unless ``keys`` is a tuple of distinct str."""
    if not all(isinstance(key, str) for key in keys):
        raise TypeError(
            f'{function}: keys must be str, got {keys!r}')
    if len(set(keys)) != len(keys):
        raise ValueError(f'{function}: keys {keys!r} repeat a key')


def all_columns(key_indices, count):
    """``key_indices`` with ``None`` meaning all ``count`` columns."""
    return tuple(range(count)) if key_indices is None else key_indices

