import gzip
import os

import numpy
import pytest

from kusari.datasets import _concrete
from kusari.datasets import _mnist_family
from kusari.datasets import fashion_mnist
from kusari.datasets import kuzushiji_mnist
from kusari.datasets import mnist

SIZES = {'train': 10, 't10k': 5}
FAMILY = [
    (mnist.get_mnist, 'mnist', 'pfnet/chainer/mnist'),
    (fashion_mnist.get_fashion_mnist, 'fashion-mnist',
     'pfnet/chainer/fashion-mnist'),
    (kuzushiji_mnist.get_kuzushiji_mnist, 'kuzushiji-mnist',
     'pfnet/chainer/kuzushiji_mnist'),
]


def idx_gz(array, magic):
    header = magic.to_bytes(4, 'big') + b''.join(
        n.to_bytes(4, 'big') for n in array.shape)
    return gzip.compress(header + array.astype(numpy.uint8).tobytes())


def make_split(seed, n):
    rng = numpy.random.default_rng(seed)
    return (rng.integers(0, 256, (n, 28, 28), dtype=numpy.uint8),
            rng.integers(0, 10, n, dtype=numpy.uint8))


@pytest.fixture
def served(file_server, dataset_root, monkeypatch, unpublished):
    """MNIST-format files for every family member under the mirror."""
    monkeypatch.setenv(_concrete.MIRROR_ENV, file_server.url('mirror'))
    arrays = {prefix: make_split(i, n)
              for i, (prefix, n) in enumerate(SIZES.items())}
    for _, name, _ in FAMILY:
        for prefix, (images, labels) in arrays.items():
            base = f'mirror/{name}/{prefix}'
            file_server.files[f'{base}-images-idx3-ubyte.gz'] = idx_gz(
                images, 0x803)
            file_server.files[f'{base}-labels-idx1-ubyte.gz'] = idx_gz(
                labels, 0x801)
    return arrays


@pytest.mark.parametrize('get, name, directory', FAMILY)
def test_default_layout(served, file_server, dataset_root, get, name,
                        directory):
    train, test = get()
    assert (len(train), len(test)) == (10, 5)
    image, label = train[3]
    assert image.shape == (784,) and image.dtype == numpy.float32
    numpy.testing.assert_allclose(
        image, served['train'][0][3].reshape(-1) / 255., rtol=1e-6)
    assert label.dtype == numpy.int32 and label == served['train'][1][3]
    numpy.testing.assert_allclose(
        test[4][0] * 255, served['t10k'][0][4].reshape(-1), rtol=1e-5)
    assert len(file_server.requests) == 4
    assert sorted(os.listdir(dataset_root / directory)) == [
        'test.npz', 'train.npz']   # no lock files left


def test_second_call_reads_the_cache(served, file_server):
    mnist.get_mnist()
    requests = list(file_server.requests)
    file_server.files.clear()
    train, _ = mnist.get_mnist(withlabel=False)
    assert file_server.requests == requests
    numpy.testing.assert_allclose(train * 255.,
                                  served['train'][0].reshape(10, -1),
                                  rtol=1e-5)


@pytest.mark.parametrize('ndim, shape', [(1, (784,)), (2, (28, 28)),
                                         (3, (1, 28, 28))])
def test_ndim(served, ndim, shape):
    train, _ = mnist.get_mnist(ndim=ndim)
    assert train[0][0].shape == shape


def test_rgb_format_repeats_the_channel(served):
    images, _ = mnist.get_mnist(withlabel=False, ndim=3, rgb_format=True)
    assert images.shape == (10, 3, 28, 28)
    numpy.testing.assert_array_equal(images[:, 0], images[:, 2])


def test_scale_and_dtypes(served):
    train, _ = mnist.get_mnist(scale=255., dtype=numpy.float64,
                               label_dtype=numpy.int64)
    image, label = train[0]
    assert image.dtype == numpy.float64 and label.dtype == numpy.int64
    numpy.testing.assert_allclose(image, served['train'][0][0].reshape(-1))


def test_bad_ndim_fails_before_downloading(served, file_server):
    with pytest.raises(ValueError, match='get_mnist: ndim must be one of'):
        mnist.get_mnist(ndim=4)
    assert file_server.requests == []


def test_base_url_constant_is_used_without_mirror(
        served, file_server, monkeypatch):
    monkeypatch.delenv(_concrete.MIRROR_ENV)
    monkeypatch.setattr(mnist, 'BASE_URL', file_server.url('mirror/mnist/'))
    train, _ = mnist.get_mnist()
    assert len(train) == 10
    assert file_server.requests[0].startswith('mirror/mnist/train-')


def test_truncated_gzip_is_reported_and_evicted(served, file_server,
                                                dataset_root):
    name = 'mirror/mnist/train-images-idx3-ubyte.gz'
    good = file_server.files[name]
    file_server.files[name] = good[:len(good) // 2]
    with pytest.raises(ValueError) as info:
        mnist.get_mnist()
    message = str(info.value)
    assert file_server.url(name) in message and 'truncated' in message
    assert not (dataset_root / 'pfnet/chainer/mnist/train.npz').exists()
    assert list((dataset_root / '_dl_cache').iterdir()) == []
    file_server.files[name] = good
    train, _ = mnist.get_mnist()
    assert len(train) == 10
    assert file_server.requests.count(name) == 2


def test_wrong_magic_number_is_reported(served, file_server):
    name = 'mirror/mnist/t10k-labels-idx1-ubyte.gz'
    file_server.files[name] = idx_gz(numpy.zeros(5), 0x802)
    with pytest.raises(ValueError, match='magic number 0x00000801'):
        mnist.get_mnist()


def test_images_and_labels_must_pair(served, file_server):
    name = 'mirror/mnist/t10k-labels-idx1-ubyte.gz'
    file_server.files[name] = idx_gz(numpy.zeros(4), 0x801)
    with pytest.raises(ValueError, match='5 images but 4 labels'):
        mnist.get_mnist()


def test_idx_length_must_match_header(tmp_path):
    path = tmp_path / 'x.gz'
    data = gzip.decompress(idx_gz(numpy.zeros((2, 28, 28)), 0x803))
    path.write_bytes(gzip.compress(data[:-1]))
    with pytest.raises(ValueError, match='needs 1568 bytes'):
        _mnist_family.read_idx(path, 0x803)


def test_label_names():
    assert fashion_mnist.get_fashion_mnist_labels()[9] == 'Ankle boot'
    labels = kuzushiji_mnist.get_kuzushiji_mnist_labels()
    assert len(labels) == 10
    for romaji, code_point in labels:
        assert romaji.isascii() and 0x3041 <= int(code_point[2:], 16) <= 0x3096
    assert labels[0] == ('o', 'U+304A')
