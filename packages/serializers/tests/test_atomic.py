"""atomic.replacing: a file is replaced whole or not at all."""
import os

import pytest

from kusari.serializers import atomic


def test_replacing_moves_the_finished_file_over_the_target(tmp_path):
    target = tmp_path / 'log'
    target.write_text('old')
    with atomic.replacing(target) as temporary:
        assert atomic.is_temporary(os.path.basename(temporary))
        assert os.path.dirname(temporary) == str(tmp_path)
        with open(temporary, 'w') as file:
            file.write('new')
        assert target.read_text() == 'old'
    assert target.read_text() == 'new'
    assert os.listdir(tmp_path) == ['log']


def test_a_failed_write_leaves_the_target_and_no_temporary(tmp_path):
    target = tmp_path / 'log'
    target.write_text('old')
    with pytest.raises(KeyboardInterrupt):
        with atomic.replacing(target) as temporary:
            with open(temporary, 'w') as file:
                file.write('half')
            raise KeyboardInterrupt
    assert target.read_text() == 'old'
    assert os.listdir(tmp_path) == ['log']


@pytest.mark.parametrize('name, temporary', [
    ('.snapshot_iter_9.0123abcd.tmp', True),
    ('snapshot_iter_9', False),
    ('.snapshot_iter_9.0123abc.tmp', False),
    ('.snapshot.0123abcd.tmp.npz', False),
])
def test_is_temporary_knows_the_names_replacing_writes(name, temporary):
    assert atomic.is_temporary(name) is temporary
