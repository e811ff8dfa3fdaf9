import pickle

import pytest

from kusari import datasets


@pytest.fixture
def files(tmp_path):
    en = tmp_path / 'en.txt'
    fr = tmp_path / 'fr.txt'
    en.write_text('one\ntwo\n\nfour\n', encoding='utf-8')
    fr.write_bytes('un\ndeux\n\nquatre\n'.encode('latin-1'))
    return str(en), str(fr)


def test_single_file_lines_keep_newlines(files):
    d = datasets.TextDataset(files[0])
    assert len(d) == 4
    assert d[0] == 'one\n' and d[2] == '\n' and d[-1] == 'four\n'
    assert d[1:3] == ['two\n', '\n']
    with pytest.raises(IndexError, match='TextDataset: index 4 .* 4'):
        d[4]


def test_parallel_files_with_per_file_encoding(files):
    d = datasets.TextDataset(list(files), encoding=['utf-8', 'latin-1'])
    assert d[3] == ('four\n', 'quatre\n')
    assert datasets.TextDataset([files[0]])[0] == ('one\n',)


def test_filter_func_sees_every_file(files):
    d = datasets.TextDataset(list(files),
                             filter_func=lambda a, b: a.strip() != '')
    assert len(d) == 3 and d[2] == ('four\n', 'quatre\n')


def test_files_of_different_lengths(files, tmp_path):
    short = tmp_path / 'short.txt'
    short.write_text('a\n')
    with pytest.raises(ValueError, match=r'short.txt ends after 1 lines'):
        datasets.TextDataset([files[0], str(short)])
    with pytest.raises(ValueError, match='one per file'):
        datasets.TextDataset(list(files), encoding=['utf-8'])


def test_pickle_and_close(files):
    d = datasets.TextDataset(files[0])
    d[0]
    restored = pickle.loads(pickle.dumps(d))
    assert restored[1] == 'two\n'
    d.close()
    assert d[3] == 'four\n'


def test_windows_newlines(tmp_path):
    path = tmp_path / 'crlf.txt'
    path.write_bytes(b'a\r\nbb\r\n')
    assert datasets.TextDataset(str(path))[1] == 'bb\n'
    assert datasets.TextDataset(str(path), newline='')[1] == 'bb\r\n'
