import numpy
import pytest

from kusari.datasets import _concrete
from kusari.datasets import ptb

TEXTS = {
    'train': ' the cat sat \n on the mat \n',
    'valid': ' the mat \n',
    'test': ' cat on the cat \n',
}


@pytest.fixture
def served(file_server, dataset_root, monkeypatch, unpublished):
    monkeypatch.setenv(_concrete.MIRROR_ENV, file_server.url('m'))
    for split, text in TEXTS.items():
        file_server.files[f'm/ptb/ptb.{split}.txt'] = text.encode()


def test_vocabulary_in_order_of_first_appearance(served, dataset_root):
    vocabulary = ptb.get_ptb_words_vocabulary()
    assert vocabulary == {'the': 0, 'cat': 1, 'sat': 2, '<eos>': 3,
                          'on': 4, 'mat': 5}
    assert (dataset_root / 'pfnet/chainer/ptb/vocab.txt').read_text() == \
        'the\ncat\nsat\n<eos>\non\nmat\n'


def test_words(served, file_server):
    train, valid, test = ptb.get_ptb_words()
    assert train.dtype == numpy.int32
    assert train.tolist() == [0, 1, 2, 3, 4, 0, 5, 3]
    assert valid.tolist() == [0, 5, 3]
    assert test.tolist() == [1, 4, 0, 1, 3]
    file_server.files.clear()
    again = ptb.get_ptb_words()
    assert [a.tolist() for a in again] == [
        train.tolist(), valid.tolist(), test.tolist()]
    assert ptb.get_ptb_words_vocabulary()['mat'] == 5


def test_unknown_word_is_reported(served, file_server):
    file_server.files['m/ptb/ptb.test.txt'] = b'the dog\n'
    with pytest.raises(ValueError, match=r"ptb.test.txt has words .*'dog'"):
        ptb.get_ptb_words()


def test_undecodable_file_is_reported_and_evicted(served, file_server):
    file_server.files['m/ptb/ptb.train.txt'] = b'\xff\xfe\xfa\n'
    with pytest.raises(ValueError, match='ptb.train.txt'):
        ptb.get_ptb_words_vocabulary()
    file_server.files['m/ptb/ptb.train.txt'] = TEXTS['train'].encode()
    assert len(ptb.get_ptb_words_vocabulary()) == 6
