"""Dataset utilities for multi-process training."""
from kusari.distributed.datasets.empty_dataset import (  # NOQA
    create_empty_dataset)
from kusari.distributed.datasets.scatter_dataset import (  # NOQA
    scatter_dataset, scatter_index)
