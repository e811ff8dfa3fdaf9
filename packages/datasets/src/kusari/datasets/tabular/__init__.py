"""Tabular datasets: rows of named columns, read a batch at a time.

The views that TabularDataset's methods return subclass it, so they are
handed to it here, in one call, rather than imported by it.
"""
from kusari.datasets.tabular import _concat
from kusari.datasets.tabular import _join
from kusari.datasets.tabular import _slice
from kusari.datasets.tabular import _transform
from kusari.datasets.tabular import _views
from kusari.datasets.tabular import tabular_dataset
from kusari.datasets.tabular._from_data import from_data  # NOQA
from kusari.datasets.tabular.delegate_dataset import DelegateDataset  # NOQA
from kusari.datasets.tabular.tabular_dataset import TabularDataset  # NOQA

tabular_dataset.register_views(
    slice_helper=_slice.SliceHelper, concat=_concat.Concat, join=_join.Join,
    transform=_transform.Transform, as_mode=_views.AsMode,
    with_converter=_views.WithConverter)
