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


@pytest.mark.parametrize('name, replaced', [
    ('.snapshot_iter_9.0123abcd.tmp', 'snapshot_iter_9'),
    ('.a.b.npz.89abcdef.tmp', 'a.b.npz'),
    ('snapshot_iter_9', None),
    ('.snapshot_iter_9.0123abc.tmp', None),
    ('.snapshot_iter_9.0123ABCD.tmp', None),
    ('.snapshot.0123abcd.tmp.npz', None),
    # save_npz's temporary file inside a snapshot writer's
    ('..snapshot_iter_9.0123abcd.tmp.89abcdef.tmp', 'snapshot_iter_9'),
])
def test_the_names_replacing_writes_are_known(name, replaced):
    assert atomic.is_temporary(name) is (replaced is not None)
    assert atomic.replaced_name(name) == replaced


def test_replaced_name_of_a_real_temporary_file(tmp_path):
    with atomic.replacing(tmp_path / 'model.npz') as temporary:
        assert atomic.replaced_name(os.path.basename(temporary)) == \
            'model.npz'


def test_remove_abandoned_removes_only_temporaries_of_accepted_names(
        tmp_path):
    names = ['.a.0123abcd.tmp', '..a.0123abcd.tmp.89abcdef.tmp',
             '.b.0123abcd.tmp', 'a', '.a.tmp']
    for name in names:
        (tmp_path / name).write_bytes(b'x')
    (tmp_path / '.a.fedcba98.tmp').mkdir()
    assert atomic.remove_abandoned(tmp_path, lambda name: name == 'a') == [
        '..a.0123abcd.tmp.89abcdef.tmp', '.a.0123abcd.tmp']
    assert sorted(os.listdir(tmp_path)) == [
        '.a.fedcba98.tmp', '.a.tmp', '.b.0123abcd.tmp', 'a']
    assert atomic.remove_abandoned(tmp_path / 'missing', bool) == []


def test_a_nested_replacing_writes_the_enclosing_temporary_in_place(
        tmp_path, monkeypatch):
    # A save function that saves atomically, called by a writer that does
    # too, writes and syncs the writer's temporary file once, not a
    # temporary file of it.
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, 'fsync',
                        lambda fd: (synced.append(fd), real_fsync(fd)))
    target = tmp_path / 'snapshot'
    with atomic.replacing(target) as outer:
        with atomic.replacing(outer) as inner:
            assert inner == outer
            with open(inner, 'w') as file:
                file.write('new')
        assert sorted(os.listdir(tmp_path)) == [os.path.basename(outer)]
    assert target.read_text() == 'new'
    assert os.listdir(tmp_path) == ['snapshot'] and len(synced) == 1


def test_a_failed_nested_write_leaves_nothing(tmp_path):
    target = tmp_path / 'snapshot'
    target.write_text('old')
    with pytest.raises(OSError):
        with atomic.replacing(target) as outer:
            with atomic.replacing(outer) as inner:
                with open(inner, 'w') as file:
                    file.write('half')
                raise OSError('disk full')
    assert target.read_text() == 'old'
    assert os.listdir(tmp_path) == ['snapshot']
    # Not nested any more: a later save to that name is atomic again.
    with atomic.replacing(tmp_path / 'other') as temporary:
        assert temporary != str(tmp_path / 'other')
