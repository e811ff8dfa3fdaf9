import io
import pickle

import numpy
import pytest

from kusari import datasets

EXAMPLES = [{'x': numpy.arange(3)}, 'text', (1, 2.5), None]


@pytest.fixture
def path(tmp_path):
    path = str(tmp_path / 'data.pkl')
    with datasets.open_pickle_dataset_writer(path) as writer:
        for example in EXAMPLES:
            writer.write(example)
        writer.flush()
    return path


def test_round_trip(path):
    with datasets.open_pickle_dataset(path) as d:
        assert len(d) == 4
        assert d[1] == 'text' and d[-2] == (1, 2.5) and d[3] is None
        numpy.testing.assert_array_equal(d[0]['x'], numpy.arange(3))
        assert d[2:0:-1] == [(1, 2.5), 'text']


def test_in_memory_reader_and_protocol():
    buffer = io.BytesIO()
    writer = datasets.PickleDatasetWriter(buffer, protocol=2)
    writer.write([1])
    writer.write([2, 3])
    assert buffer.getvalue()[:2] == b'\x80\x02'
    d = datasets.PickleDataset(buffer)
    assert d[:] == [[1], [2, 3]]


def test_truncated_file(path):
    with open(path, 'rb') as f:
        data = f.read()
    with pytest.raises(ValueError, match='not a complete pickle'):
        datasets.PickleDataset(io.BytesIO(data[:-3]))


def test_unseekable_reader():
    class Pipe(io.RawIOBase):
        def seekable(self):
            return False

    with pytest.raises(ValueError, match='must be seekable'):
        datasets.PickleDataset(Pipe())


def test_dataset_from_path_pickles_and_reopens(path, monkeypatch):
    d = datasets.open_pickle_dataset(path)
    restored = pickle.loads(pickle.dumps(d))
    assert restored[1] == 'text'
    first = d._reader._file()
    monkeypatch.setattr('os.getpid', lambda: -1)
    assert d[1] == 'text'
    assert d._reader._file() is not first
