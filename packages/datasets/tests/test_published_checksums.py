"""The concrete datasets check every download against its published
checksum, and say what to do when the server cannot be reached."""
import re

import pytest

from kusari.datasets import _concrete
from kusari.datasets import cifar
from kusari.datasets import mnist
from kusari.datasets import ptb
from kusari.datasets import svhn

# Every file each getter can ask for.
FILES = {
    'mnist': [f'{split}-{kind}-idx{n}-ubyte.gz'
              for split in ('train', 't10k')
              for kind, n in (('images', 3), ('labels', 1))],
    'cifar': ['cifar-10-python.tar.gz', 'cifar-100-python.tar.gz'],
    'svhn': [f'{split}_32x32.mat' for split in ('train', 'test', 'extra')],
    'ptb': [f'ptb.{split}.txt' for split in ('train', 'valid', 'test')],
}


def test_every_file_has_a_published_digest(concrete_modules):
    assert len(concrete_modules) == 6
    for module in concrete_modules:
        name = module.__name__.rpartition('.')[2]
        files = FILES.get(name, FILES['mnist'])   # the MNIST look-alikes
        assert sorted(module.CHECKSUMS) == sorted(files)
        for checksum in module.CHECKSUMS.values():
            assert re.fullmatch('sha256:[0-9a-f]{64}|md5:[0-9a-f]{32}',
                                checksum)
            # MD5 only where no SHA-256 is published.
            assert (module is ptb) == checksum.startswith('md5:')


@pytest.mark.parametrize('get, dataset, filename', [
    (mnist.get_mnist, 'mnist', 'train-images-idx3-ubyte.gz'),
    (cifar.get_cifar10, 'cifar', 'cifar-10-python.tar.gz'),
    (svhn.get_svhn, 'svhn', 'train_32x32.mat'),
    (ptb.get_ptb_words, 'ptb', 'ptb.train.txt'),
])
def test_a_corrupted_download_is_refused(file_server, dataset_root,
                                         monkeypatch, get, dataset,
                                         filename):
    pytest.importorskip('scipy')   # get_svhn checks for it first
    monkeypatch.setenv(_concrete.MIRROR_ENV, file_server.url('m'))
    file_server.files[f'm/{dataset}/{filename}'] = b'corrupted bytes'
    with pytest.raises(ValueError, match=(
            rf'{re.escape(file_server.url(f"m/{dataset}/{filename}"))} has '
            r'(sha256|md5) [0-9a-f]+, but its published checksum is')):
        get()
    assert list((dataset_root / '_dl_cache').iterdir()) == []


def test_an_unreachable_server_names_the_mirror_and_the_root(
        file_server, dataset_root, monkeypatch):
    monkeypatch.setenv(_concrete.MIRROR_ENV, file_server.url('m'))
    with pytest.raises(OSError) as info:
        mnist.get_mnist()
    message = str(info.value)
    assert 'KUSARI_DATASET_MIRROR' in message
    assert 'mnist/train-images-idx3-ubyte.gz' in message
    assert str(dataset_root) in message and 'CHAINER_DATASET_ROOT' in message


def test_checks_can_be_turned_off_for_a_mirror_of_other_files(
        file_server, dataset_root, monkeypatch, caplog):
    monkeypatch.setenv(_concrete.MIRROR_ENV, file_server.url('m'))
    monkeypatch.setenv(_concrete.VERIFY_ENV, '0')
    for split in ('train', 'valid', 'test'):
        file_server.files[f'm/ptb/ptb.{split}.txt'] = b'a b\n'
    train, _, _ = ptb.get_ptb_words()
    assert train.tolist() == [0, 1, 2]
    assert 'KUSARI_DATASET_VERIFY=0' in caplog.text
