"""Kusari datasets: datasets, the download cache, iterators, converters.

The drop-in ``chainer.dataset`` and ``chainer.datasets`` both come from
here.
"""
from kusari.datasets import tabular  # NOQA
from kusari.datasets.cifar import get_cifar10, get_cifar100  # NOQA
from kusari.datasets.concatenated_dataset import ConcatenatedDataset  # NOQA
from kusari.datasets.dataset_mixin import DatasetMixin  # NOQA
from kusari.datasets.dict_dataset import DictDataset  # NOQA
from kusari.datasets.download import (  # NOQA
    cache_or_load_file, cached_download, get_dataset_directory,
    get_dataset_root, set_dataset_root)
from kusari.datasets.fashion_mnist import (  # NOQA
    get_fashion_mnist, get_fashion_mnist_labels)
from kusari.datasets.image_dataset import (  # NOQA
    ImageDataset, LabeledImageDataset, LabeledZippedImageDataset,
    MultiZippedImageDataset, ZippedImageDataset)
from kusari.datasets.kuzushiji_mnist import (  # NOQA
    get_kuzushiji_mnist, get_kuzushiji_mnist_labels)
from kusari.datasets.mnist import get_mnist  # NOQA
from kusari.datasets.pickle_dataset import (  # NOQA
    PickleDataset, PickleDatasetWriter, open_pickle_dataset,
    open_pickle_dataset_writer)
from kusari.datasets.ptb import get_ptb_words, get_ptb_words_vocabulary  # NOQA
from kusari.datasets.sub_dataset import (  # NOQA
    SubDataset, get_cross_validation_datasets,
    get_cross_validation_datasets_random, split_dataset, split_dataset_n,
    split_dataset_n_random, split_dataset_random)
from kusari.datasets.svhn import get_svhn  # NOQA
from kusari.datasets.tabular.tabular_dataset import TabularDataset  # NOQA
from kusari.datasets.text_dataset import TextDataset  # NOQA
from kusari.datasets.transform_dataset import TransformDataset  # NOQA
from kusari.datasets.tuple_dataset import TupleDataset  # NOQA

from kusari.datasets import iterators  # NOQA
from kusari.datasets.convert import (  # NOQA
    ConcatWithAsyncTransfer, Converter, concat_examples, converter,
    to_device)
from kusari.datasets.iterator import Iterator  # NOQA

from kusari.array import parts as _parts

# __version__, read from the installed metadata when asked.
__getattr__ = _parts.module_getattr(__name__, 'kusari-datasets')
