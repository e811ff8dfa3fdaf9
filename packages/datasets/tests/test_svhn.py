import io
import sys

import numpy
import pytest

from kusari.datasets import _concrete
from kusari.datasets import svhn

scipy_io = pytest.importorskip('scipy.io')


def mat(rng, n):
    images = rng.integers(0, 256, (32, 32, 3, n), dtype=numpy.uint8)
    labels = rng.integers(1, 11, (n, 1)).astype(numpy.uint8)
    labels[0] = 10
    buffer = io.BytesIO()
    scipy_io.savemat(buffer, {'X': images, 'y': labels})
    return buffer.getvalue(), images, labels


@pytest.fixture
def served(file_server, dataset_root, monkeypatch, unpublished):
    monkeypatch.setenv(_concrete.MIRROR_ENV, file_server.url('m/'))
    rng = numpy.random.default_rng(0)
    splits = {}
    for split, n in (('train', 4), ('test', 3), ('extra', 2)):
        data, images, labels = mat(rng, n)
        file_server.files[f'm/svhn/{split}_32x32.mat'] = data
        splits[split] = images, labels
    return splits


def test_layout_and_labels(served):
    train, test = svhn.get_svhn()
    assert (len(train), len(test)) == (4, 3)
    images, labels = served['train']
    image, label = train[2]
    assert image.shape == (3, 32, 32) and image.dtype == numpy.float32
    numpy.testing.assert_allclose(image * 255,
                                  images[..., 2].transpose(2, 0, 1),
                                  rtol=1e-5)
    assert label.dtype == numpy.int32 and label == labels[2, 0] % 10
    assert train[0][1] == 0   # class 10 is the digit 0


def test_options_and_extra(served, file_server):
    train, test, extra = svhn.get_svhn(
        withlabel=False, scale=2., dtype=numpy.float64, add_extra=True)
    assert extra.shape == (2, 3, 32, 32) and extra.dtype == numpy.float64
    assert train.max() <= 2.
    assert sorted(file_server.requests) == [
        'm/svhn/extra_32x32.mat', 'm/svhn/test_32x32.mat',
        'm/svhn/train_32x32.mat']
    svhn.get_svhn()
    assert len(file_server.requests) == 3


def test_truncated_mat_is_reported_and_evicted(served, file_server,
                                               dataset_root):
    name = 'm/svhn/test_32x32.mat'
    good = file_server.files[name]
    file_server.files[name] = good[:len(good) // 2]
    with pytest.raises(ValueError, match='test_32x32.mat'):
        svhn.get_svhn()
    file_server.files[name] = good
    assert len(svhn.get_svhn()[1]) == 3
    assert file_server.requests.count(name) == 2


def test_missing_scipy_names_the_extra(served, file_server, monkeypatch):
    monkeypatch.setitem(sys.modules, 'scipy', None)
    with pytest.raises(ImportError, match=r'kusari-datasets\[svhn\]'):
        svhn.get_svhn()
    assert file_server.requests == []
