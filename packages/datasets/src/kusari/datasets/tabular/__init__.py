"""Tabular datasets: rows of named columns, read a batch at a time."""
from kusari.datasets.tabular._from_data import from_data  # NOQA
from kusari.datasets.tabular.delegate_dataset import DelegateDataset  # NOQA
from kusari.datasets.tabular.tabular_dataset import TabularDataset  # NOQA
