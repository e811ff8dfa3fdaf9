"""Tabular views computed from another dataset's examples or batches."""
from kusari.datasets.tabular import _columns
from kusari.datasets.tabular import tabular_dataset

_UNKNOWN = object()


class Transform(tabular_dataset.TabularDataset):
    """Applies a function per example, or per batch with ``batched``.

    The mode of a view is the type the function returns (tuple, dict, or
    None for a bare value under a single key); it is found by
    transforming the first example the first time it is needed.
    """

    def __init__(self, dataset, keys, function, batched):
        self._name = 'transform_batch' if batched else 'transform'
        if not callable(function):
            raise TypeError(
                f'{self._name}: the function must be callable, got '
                f'{type(function).__name__}')
        # As in Chainer, a str key is the one-key tuple: the mode comes
        # from what the function returns either way.
        keys = (keys,) if isinstance(keys, str) else tuple(keys)
        _columns.check_new_keys(self._name, keys)
        self._dataset = dataset
        self._keys = keys
        self._function = function
        self._batched = batched
        self._mode = _UNKNOWN

    def __len__(self):
        return len(self._dataset)

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        if self._mode is _UNKNOWN:
            if len(self) == 0:
                return tuple
            self.get_examples([0], None)
        return self._mode

    def get_examples(self, indices, key_indices):
        inputs = self._dataset.get_examples(indices, None)
        if self._batched:
            size = len(inputs[0]) if inputs else len(
                _columns.rows(indices, len(self)))
            outputs = self._unpack(self._call(inputs))
            for key, column in zip(self._keys, outputs):
                if len(column) != size:
                    raise ValueError(
                        f'transform_batch: column {key!r} has '
                        f'{len(column)} rows for a batch of {size}')
        else:
            rows = [self._unpack(self._call(values))
                    for values in zip(*inputs)]
            outputs = [list(column) for column in zip(*rows)] or [
                [] for _ in self._keys]
        return tuple(outputs[k] for k in
                     _columns.all_columns(key_indices, len(self._keys)))

    def _call(self, values):
        mode = self._dataset.mode
        if mode is tuple:
            return self._function(*values)
        if mode is dict:
            return self._function(**dict(zip(self._dataset.keys, values)))
        return self._function(values[0])

    def _unpack(self, output):
        """The output values (or columns) in key order; learns the mode."""
        if isinstance(output, tuple):
            if len(output) != len(self._keys):
                raise ValueError(
                    f'{self._name}: the function returned {len(output)} '
                    f'values for the keys {self._keys}')
            mode = tuple
        elif isinstance(output, dict):
            if set(output) != set(self._keys):
                raise ValueError(
                    f'{self._name}: the function returned the keys '
                    f'{tuple(output)}, expected {self._keys}')
            output = tuple(output[key] for key in self._keys)
            mode = dict
        elif len(self._keys) == 1:
            # As in Chainer: a bare value is the one column (mode None).
            output, mode = (output,), None
        else:
            raise TypeError(
                f'{self._name}: with the keys {self._keys} the function '
                f'must return a tuple or a dict, got '
                f'{type(output).__name__}')
        if self._mode is _UNKNOWN:
            self._mode = mode
        elif self._mode is not mode:
            raise ValueError(
                f'{self._name}: the function must always return the same '
                f'type (mode {getattr(self._mode, "__name__", None)}), '
                f'then gave mode {getattr(mode, "__name__", None)}')
        return output
