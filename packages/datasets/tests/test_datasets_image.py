import pickle
import sys
import zipfile

import numpy
import pytest

from kusari import datasets

Image = pytest.importorskip('PIL.Image')


@pytest.fixture
def images(tmp_path):
    """Two greyscale and one RGB PNG, and the arrays they hold."""
    rng = numpy.random.default_rng(0)
    arrays = {
        'a.png': rng.integers(0, 256, (3, 4), dtype=numpy.uint8),
        'b.png': rng.integers(0, 256, (3, 4), dtype=numpy.uint8),
        'c.png': rng.integers(0, 256, (2, 5, 3), dtype=numpy.uint8),
    }
    for name, array in arrays.items():
        Image.fromarray(array).save(tmp_path / name)
    return arrays


def chw(array):
    return array[None] if array.ndim == 2 else array.transpose(2, 0, 1)


def test_available_says_whether_pillow_is_installed(monkeypatch):
    from kusari.datasets import image_dataset
    assert image_dataset.available is True  # Pillow imported above
    monkeypatch.setitem(sys.modules, 'PIL', None)
    with pytest.raises(ImportError, match='needs Pillow'):
        datasets.ImageDataset([])


def test_image_dataset_from_list(tmp_path, images):
    d = datasets.ImageDataset(['a.png', 'c.png'], root=tmp_path)
    assert len(d) == 2
    a = d[0]
    assert a.shape == (1, 3, 4) and a.dtype == numpy.float32
    numpy.testing.assert_array_equal(a, chw(images['a.png']))
    numpy.testing.assert_array_equal(d[-1], chw(images['c.png']))


def test_image_dataset_from_file_with_dtype(tmp_path, images):
    (tmp_path / 'list.txt').write_text(f'{tmp_path}/b.png\n\n')
    d = datasets.ImageDataset(str(tmp_path / 'list.txt'), dtype=numpy.uint8)
    assert len(d) == 1 and d[0].dtype == numpy.uint8
    numpy.testing.assert_array_equal(d[0], chw(images['b.png']))


def test_labeled_image_dataset(tmp_path, images):
    (tmp_path / 'pairs.txt').write_text('a.png 3\nc.png 7\n')
    d = datasets.LabeledImageDataset(str(tmp_path / 'pairs.txt'),
                                     root=tmp_path, label_dtype=numpy.int64)
    image, label = d[1]
    numpy.testing.assert_array_equal(image, chw(images['c.png']))
    assert label == 7 and label.dtype == numpy.int64
    pairs = datasets.LabeledImageDataset([('b.png', 1)], root=tmp_path)
    assert pairs[0][1].dtype == numpy.int32


def test_labeled_image_dataset_bad_line(tmp_path, images):
    (tmp_path / 'pairs.txt').write_text('a.png 3\nc.png seven\n')
    with pytest.raises(ValueError, match=r'line 2 of .*pairs.txt'):
        datasets.LabeledImageDataset(str(tmp_path / 'pairs.txt'))


@pytest.fixture
def archives(tmp_path, images):
    paths = []
    for n, names in enumerate((['a.png', 'c.png'], ['b.png'])):
        path = tmp_path / f'{n}.zip'
        with zipfile.ZipFile(path, 'w') as z:
            z.writestr('dir/', b'')
            for name in names:
                z.write(tmp_path / name, f'dir/{name}')
        paths.append(str(path))
    return paths


def test_zipped_image_dataset(archives, images):
    d = datasets.ZippedImageDataset(archives[0])
    assert d.paths == ['dir/a.png', 'dir/c.png'] and len(d) == 2
    numpy.testing.assert_array_equal(d[1], chw(images['c.png']))
    restored = pickle.loads(pickle.dumps(d))
    numpy.testing.assert_array_equal(restored[0], chw(images['a.png']))


def test_multi_zipped_image_dataset(archives, images):
    d = datasets.MultiZippedImageDataset(archives, dtype=numpy.float64)
    assert len(d) == 3 and d[2].dtype == numpy.float64
    numpy.testing.assert_array_equal(d[2], chw(images['b.png']))


def test_labeled_zipped_image_dataset(tmp_path, archives, images):
    (tmp_path / 'labels.txt').write_text('dir/c.png 4\ndir/a.png 2\n')
    d = datasets.LabeledZippedImageDataset(archives[0],
                                           str(tmp_path / 'labels.txt'))
    image, label = d[0]
    numpy.testing.assert_array_equal(image, chw(images['c.png']))
    assert label == 4
    (tmp_path / 'bad.txt').write_text('dir/zzz.png 4\n')
    with pytest.raises(ValueError, match='zzz.png'):
        datasets.LabeledZippedImageDataset(archives[0],
                                           str(tmp_path / 'bad.txt'))


def test_zip_is_reopened_in_another_process(archives, monkeypatch):
    d = datasets.ZippedImageDataset(archives[0])
    d[0]
    first = d._archive._files.get()[0]
    monkeypatch.setattr('os.getpid', lambda: -1)
    d[0]
    assert d._archive._files.get()[0] is not first


@pytest.mark.parametrize('make', [
    lambda tmp: datasets.ImageDataset([]),
    lambda tmp: datasets.LabeledImageDataset([]),
    lambda tmp: datasets.ZippedImageDataset(tmp),
])
def test_missing_pillow_names_the_extra(tmp_path, monkeypatch, make):
    monkeypatch.setitem(sys.modules, 'PIL', None)
    with pytest.raises(ImportError, match=r'kusari-datasets\[image\]'):
        make(str(tmp_path / 'x.zip'))
