"""Datasets of image files, on disk or in zip archives.

Images are read with Pillow, the optional extra ``image`` of
kusari-datasets, when an example is asked for, and come out as arrays of
shape ``(channels, height, width)``; a greyscale image has one channel.
"""
import functools
import importlib.util
import io
import os
import zipfile

import numpy

from kusari.array import configuration
from kusari.datasets import _per_process
from kusari.datasets import concatenated_dataset
from kusari.datasets import dataset_mixin


#: Whether Pillow, which reads the images, is installed.
available = importlib.util.find_spec('PIL') is not None


def _pillow_image(owner):
    try:
        from PIL import Image
    except ImportError as e:
        raise ImportError(
            f'{owner} needs Pillow, the optional extra "image" of '
            'kusari-datasets: pip install "kusari-datasets[image]"') from e
    return Image


def _read_image(file, dtype):
    """Read an image file (a path or a file object) as a CHW array."""
    with _pillow_image('reading an image').open(file) as image:
        array = numpy.asarray(image, dtype=dtype)
    if array.ndim == 2:
        array = array[:, :, numpy.newaxis]
    return array.transpose(2, 0, 1)


def _read_lines(path):
    """The non-blank lines of a text file, stripped."""
    with open(path, encoding='utf-8') as f:
        return [line.strip() for line in f if line.strip()]


def _read_pairs(owner, path):
    """Parse a file of ``<image path> <integer label>`` lines."""
    pairs = []
    for number, line in enumerate(_read_lines(path), 1):
        fields = line.rsplit(maxsplit=1)
        try:
            pairs.append((fields[0], int(fields[1])))
        except (IndexError, ValueError):
            raise ValueError(
                f'{owner}: line {number} of {path} must be "<image path> '
                f'<integer label>", got {line!r}') from None
    return pairs


def _open_zip(path):
    return [zipfile.ZipFile(path)]


class _ZipArchive:
    """The image members of a zip file, opened once per process."""

    def __init__(self, path):
        self._files = _per_process.PerProcessFiles(
            functools.partial(_open_zip, path))
        with self._files.lock:
            names = self._files.get()[0].namelist()
        self.names = [name for name in names if not name.endswith('/')]

    def read_image(self, name, dtype):
        with self._files.lock:
            data = self._files.get()[0].read(name)
        return _read_image(io.BytesIO(data), dtype)


class ImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of images read from a list of files.

    Args:
        paths (str or list of str): The image paths, or the path of a text
            file that lists them one per line.
        root (str): The directory the paths are relative to.
        dtype: The dtype of the arrays; default ``config.dtype``.

    The ``i``-th example is the ``i``-th image as a ``(C, H, W)`` array.
    """

    def __init__(self, paths, root='.', dtype=None):
        _pillow_image('ImageDataset')
        if isinstance(paths, (str, os.PathLike)):
            paths = _read_lines(paths)
        self._paths = list(paths)
        self._root = root
        self._dtype = configuration.get_dtype(dtype)

    def __len__(self):
        return len(self._paths)

    def get_example(self, i):
        return _read_image(os.path.join(self._root, self._paths[i]),
                           self._dtype)


class LabeledImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of ``(image, label)`` pairs read from a list of files.

    Args:
        pairs (str or list of tuples): ``(path, int label)`` pairs, or the
            path of a text file of ``<path> <label>`` lines.
        root (str): The directory the paths are relative to.
        dtype: The dtype of the images; default ``config.dtype``.
        label_dtype: The dtype of the labels.

    The ``i``-th example is ``(image, label)``: a ``(C, H, W)`` array and a
    0-d array.
    """

    def __init__(self, pairs, root='.', dtype=None,
                 label_dtype=numpy.int32):
        _pillow_image('LabeledImageDataset')
        if isinstance(pairs, (str, os.PathLike)):
            pairs = _read_pairs('LabeledImageDataset', pairs)
        self._pairs = list(pairs)
        self._root = root
        self._dtype = configuration.get_dtype(dtype)
        self._label_dtype = label_dtype

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        path, label = self._pairs[i]
        image = _read_image(os.path.join(self._root, path), self._dtype)
        return image, numpy.array(label, dtype=self._label_dtype)


class ZippedImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of the images in a zip file, in the archive's order.

    Args:
        zipfilename (str): The zip file; every member that is not a
            directory is an image.
        dtype: The dtype of the arrays; default ``config.dtype``.
    """

    def __init__(self, zipfilename, dtype=None):
        _pillow_image('ZippedImageDataset')
        self._archive = _ZipArchive(zipfilename)
        self._dtype = configuration.get_dtype(dtype)

    @property
    def paths(self):
        """The member names of the images, in dataset order."""
        return list(self._archive.names)

    def __len__(self):
        return len(self._archive.names)

    def get_example(self, i):
        return self._archive.read_image(self._archive.names[i], self._dtype)


class MultiZippedImageDataset(concatenated_dataset.ConcatenatedDataset):
    """Dataset of the images of several zip files, one file after another.

    Args:
        zipfilenames (list of str): The zip files.
        dtype: The dtype of the arrays; default ``config.dtype``.
    """

    def __init__(self, zipfilenames, dtype=None):
        super().__init__(*[ZippedImageDataset(name, dtype)
                           for name in zipfilenames])


class LabeledZippedImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of ``(image, label)`` pairs, the images in a zip file.

    Args:
        zipfilename (str): The zip file of the images.
        labelfilename (str): A text file (outside the archive) of
            ``<member name> <integer label>`` lines; it sets the order.
        dtype: The dtype of the images; default ``config.dtype``.
        label_dtype: The dtype of the labels.
    """

    def __init__(self, zipfilename, labelfilename, dtype=None,
                 label_dtype=numpy.int32):
        _pillow_image('LabeledZippedImageDataset')
        self._archive = _ZipArchive(zipfilename)
        self._pairs = _read_pairs('LabeledZippedImageDataset', labelfilename)
        missing = ({path for path, _ in self._pairs}
                   - set(self._archive.names))
        if missing:
            raise ValueError(
                f'LabeledZippedImageDataset: {labelfilename} names images '
                f'that are not in {zipfilename}: {sorted(missing)[:5]}')
        self._dtype = configuration.get_dtype(dtype)
        self._label_dtype = label_dtype

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        path, label = self._pairs[i]
        image = self._archive.read_image(path, self._dtype)
        return image, numpy.array(label, dtype=self._label_dtype)
