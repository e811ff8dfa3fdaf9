"""Views that change only the mode or the converter of a dataset."""
from kusari.datasets.tabular import delegate_dataset


class AsMode(delegate_dataset.DelegateDataset):
    """The same rows and columns, as tuples or as dicts."""

    def __init__(self, dataset, mode):
        super().__init__(dataset)
        self._mode = mode

    @property
    def mode(self):
        return self._mode


class WithConverter(delegate_dataset.DelegateDataset):
    """The same dataset with another :meth:`convert`."""

    def __init__(self, dataset, converter):
        if not callable(converter):
            raise TypeError(
                'with_converter: converter must be callable, got '
                f'{type(converter).__name__}')
        super().__init__(dataset)
        self._converter = converter

    def convert(self, data):
        if isinstance(data, tuple):
            return self._converter(*data)
        if isinstance(data, dict):
            return self._converter(**data)
        return self._converter(data)
