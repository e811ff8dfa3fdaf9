import io
import pickle
import tarfile

import numpy
import pytest

from kusari.datasets import _concrete
from kusari.datasets import cifar


def tar_gz(members):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode='w:gz') as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def batch(rng, n, label_keys):
    data = rng.integers(0, 256, (n, 3072), dtype=numpy.uint8)
    content = {b'data': data, b'batch_label': b'x'}
    for key in label_keys:
        content[key] = rng.integers(0, 100, n).tolist()
    return content


def cifar10_archive(rng):
    batches = {f'data_batch_{i}': batch(rng, 2, [b'labels'])
               for i in range(1, 6)}
    batches['test_batch'] = batch(rng, 3, [b'labels'])
    archive = tar_gz({f'cifar-10-batches-py/{name}': pickle.dumps(content)
                      for name, content in batches.items()})
    return archive, batches


@pytest.fixture
def served(file_server, dataset_root, monkeypatch, unpublished):
    monkeypatch.setenv(_concrete.MIRROR_ENV, file_server.url('m'))
    rng = numpy.random.default_rng(0)
    archive, batches = cifar10_archive(rng)
    file_server.files['m/cifar/cifar-10-python.tar.gz'] = archive
    hundred = {'train': batch(rng, 4, [b'fine_labels', b'coarse_labels']),
               'test': batch(rng, 2, [b'fine_labels', b'coarse_labels'])}
    file_server.files['m/cifar/cifar-100-python.tar.gz'] = tar_gz(
        {f'cifar-100-python/{name}': pickle.dumps(content)
         for name, content in hundred.items()})
    return batches, hundred


def test_cifar10_layout(served):
    batches, _ = served
    train, test = cifar.get_cifar10()
    assert (len(train), len(test)) == (10, 3)
    image, label = train[7]   # the second image of data_batch_4
    source = batches['data_batch_4']
    assert image.shape == (3, 32, 32) and image.dtype == numpy.float32
    # Channel-major rows: the red plane, then green, then blue.
    assert image[1, 2, 5] * 255 == pytest.approx(
        source[b'data'][1][1024 + 2 * 32 + 5], rel=1e-5)
    assert label.dtype == numpy.int32 and label == source[b'labels'][1]
    assert test[2][1] == batches['test_batch'][b'labels'][2]


def test_cifar10_options(served, file_server):
    train, _ = cifar.get_cifar10(withlabel=False, ndim=1, scale=255.,
                                 dtype=numpy.float64)
    assert train.shape == (10, 3072) and train.dtype == numpy.float64
    numpy.testing.assert_allclose(
        train[:2], served[0]['data_batch_1'][b'data'])
    assert file_server.requests == ['m/cifar/cifar-10-python.tar.gz']


def test_cifar10_bad_ndim(served, file_server):
    with pytest.raises(ValueError, match='get_cifar10: ndim must be one of'):
        cifar.get_cifar10(ndim=2)
    assert file_server.requests == []


def test_cifar100_uses_fine_labels_and_caches(served, file_server,
                                              dataset_root):
    _, hundred = served
    train, test = cifar.get_cifar100()
    assert (len(train), len(test)) == (4, 2)
    assert [int(train[i][1]) for i in range(4)] == \
        hundred['train'][b'fine_labels']
    file_server.files.clear()
    again, _ = cifar.get_cifar100()
    numpy.testing.assert_array_equal(again[3][0], train[3][0])
    assert (dataset_root / 'pfnet/chainer/cifar/cifar-100.npz').exists()


def test_truncated_archive_is_reported_and_evicted(served, file_server,
                                                   dataset_root):
    name = 'm/cifar/cifar-10-python.tar.gz'
    good = file_server.files[name]
    file_server.files[name] = good[:len(good) // 3]
    with pytest.raises(ValueError, match='cifar-10-python.tar.gz'):
        cifar.get_cifar10()
    assert not (dataset_root / 'pfnet/chainer/cifar/cifar-10.npz').exists()
    file_server.files[name] = good
    assert len(cifar.get_cifar10()[0]) == 10
    assert file_server.requests.count(name) == 2


def test_archive_missing_a_member_is_reported(served, file_server):
    file_server.files['m/cifar/cifar-10-python.tar.gz'] = tar_gz(
        {'cifar-10-batches-py/test_batch': b''})
    with pytest.raises(ValueError, match='data_batch_1'):
        cifar.get_cifar10()
