"""snapshot / snapshot_object and the snapshot writers."""
import logging
import os
import warnings

import numpy
import pytest

from kusari.serializers import load_npz, save_npz
from kusari.training import optimizers, testing
from kusari.training.extensions import snapshot, snapshot_object
from kusari.training.extensions import snapshot_writers

import _trainer_helpers as helpers

WRITERS = {
    'simple': snapshot_writers.SimpleWriter,
    'thread': snapshot_writers.ThreadWriter,
    'process': snapshot_writers.ProcessWriter,
    'thread_queue': snapshot_writers.ThreadQueueWriter,
    'process_queue': snapshot_writers.ProcessQueueWriter,
}


def _files(path):
    return sorted(name for name in os.listdir(path))


def test_snapshot_defaults():
    extension = snapshot()
    assert extension.trigger == (1, 'epoch')
    assert extension.priority == -100
    assert extension.filename == 'snapshot_iter_{.updater.iteration}'
    assert isinstance(extension.writer, snapshot_writers.SimpleWriter)


@pytest.mark.parametrize('writer', sorted(WRITERS))
def test_every_writer_saves_loadable_snapshots(tmp_path, writer):
    trainer = helpers.make_trainer(tmp_path, (6, 'iteration'))
    trainer.extend(snapshot(writer=WRITERS[writer]()),
                   trigger=(2, 'iteration'))
    trainer.run()
    assert _files(tmp_path) == ['snapshot_iter_2', 'snapshot_iter_4',
                                'snapshot_iter_6']
    fresh = helpers.make_trainer(tmp_path / 'fresh', (6, 'iteration'))
    fresh.extend(snapshot())
    load_npz(str(tmp_path / 'snapshot_iter_6'), fresh)
    model = trainer.updater.get_optimizer('main').target
    loaded = fresh.updater.get_optimizer('main').target
    assert fresh.updater.iteration == 6
    for key, value in helpers.params(model).items():
        numpy.testing.assert_array_equal(helpers.params(loaded)[key], value)


def test_snapshot_object_and_callable_filename(tmp_path):
    trainer = helpers.make_trainer(tmp_path, (4, 'iteration'))
    model = trainer.updater.get_optimizer('main').target
    trainer.extend(snapshot_object(model.predictor, 'model_{.updater.epoch}'),
                   trigger=(2, 'iteration'))
    trainer.extend(snapshot(filename=lambda t: f'at{t.updater.iteration}'),
                   trigger=(4, 'iteration'))
    trainer.run()
    assert _files(tmp_path) == ['at4', 'model_0', 'model_1']
    predictor = helpers.MLP(seed=5)
    load_npz(str(tmp_path / 'model_1'), predictor)
    for key, value in helpers.params(model.predictor).items():
        numpy.testing.assert_array_equal(helpers.params(predictor)[key],
                                         value)


@pytest.mark.parametrize('writer', ['simple', 'thread', 'process_queue'])
def test_n_retains_keeps_the_newest(tmp_path, writer):
    trainer = helpers.make_trainer(tmp_path, (10, 'iteration'))
    trainer.extend(snapshot(n_retains=2, writer=WRITERS[writer]()),
                   trigger=(2, 'iteration'))
    trainer.run()
    assert _files(tmp_path) == ['snapshot_iter_10', 'snapshot_iter_8']


@pytest.mark.parametrize('kwargs', [
    {'n_retains': 0},
    {'n_retains': 2, 'filename': lambda t: f'at_{t.updater.iteration}'}])
def test_n_retains_keeping_all(tmp_path, kwargs):
    # As Chainer's: 0 keeps every snapshot, and so does a callable
    # filename (no template to find the old ones by), with a warning.
    trainer = helpers.make_trainer(tmp_path, (3, 'iteration'))
    with pytest.warns(UserWarning, match='every snapshot is kept') \
            if 'filename' in kwargs else _no_warning():
        extension = snapshot(**kwargs)
    trainer.extend(extension, trigger=(1, 'iteration'))
    trainer.run()
    assert len(_files(tmp_path)) == 3


def _no_warning():
    return warnings.catch_warnings(action='error')


def test_condition(tmp_path):
    trainer = helpers.make_trainer(tmp_path, (4, 'iteration'))
    allow = iter([False, True, False, True])
    trainer.extend(snapshot(condition=lambda: next(allow)),
                   trigger=(1, 'iteration'))
    trainer.run()
    assert _files(tmp_path) == ['snapshot_iter_2', 'snapshot_iter_4']


def test_snapshot_on_error(tmp_path):
    trainer = helpers.make_trainer(tmp_path, (10, 'iteration'))

    def fail(trainer):
        if trainer.updater.iteration == 3:
            raise ValueError('fail')

    trainer.extend(fail)
    trainer.extend(snapshot(snapshot_on_error=True))
    with pytest.raises(ValueError):
        trainer.run(show_loop_exception_msg=False)
    assert _files(tmp_path) == ['snapshot_iter_3']


@pytest.mark.parametrize('writer', sorted(WRITERS))
def test_a_failed_write_leaves_the_previous_snapshot_intact(tmp_path,
                                                            writer):
    def savefun(path, target):
        # The second write fails halfway (works in a child process too).
        if os.path.exists(os.path.join(os.path.dirname(path), 'snap')):
            with open(path, 'w') as stream:
                stream.write('partial')
            raise OSError('disk full')
        save_npz(path, target)

    outdir = tmp_path
    made = WRITERS[writer](savefun=savefun)
    trainer = testing.get_trainer_with_mock_updater((4, 'iteration'))
    trainer.out = str(outdir)
    trainer.extend(snapshot(writer=made, filename='snap'),
                   trigger=(2, 'iteration'))
    if writer == 'simple':
        with pytest.raises(OSError, match='disk full'):
            trainer.run(show_loop_exception_msg=False)
    elif writer.startswith('process'):
        with pytest.raises(RuntimeError, match='failed'):
            trainer.run(show_loop_exception_msg=False)
    else:
        with pytest.raises(RuntimeError, match='disk full'):
            trainer.run(show_loop_exception_msg=False)
    assert _files(outdir) == ['snap']
    stored = numpy.load(str(outdir / 'snap'))
    assert int(stored['updater/iteration']) == 2


def test_async_writers_save_the_state_at_snapshot_time(tmp_path):
    trainer = helpers.make_trainer(tmp_path, (2, 'iteration'))
    trainer.extend(snapshot(writer=snapshot_writers.ThreadQueueWriter()),
                   trigger=(1, 'iteration'))
    model = trainer.updater.get_optimizer('main').target
    at_1 = []
    trainer.extend(lambda t: at_1.append(helpers.params(model))
                   if t.updater.iteration == 1 else None, name='keep')
    trainer.run()
    stored = numpy.load(str(tmp_path / 'snapshot_iter_1'))
    numpy.testing.assert_array_equal(
        stored['updater/model:main/predictor/l1/W'],
        at_1[0]['/predictor/l1/W'])


def test_autoload_resumes_from_the_newest_snapshot(tmp_path, caplog):
    calls = []
    first = helpers.make_trainer(tmp_path, (6, 'iteration'))
    first.extend(lambda t: None, name='c')
    first.extend(snapshot(autoload=True), trigger=(3, 'iteration'))
    first.run()
    second = helpers.make_trainer(tmp_path, (9, 'iteration'))
    second.extend(lambda t: calls.append(t.updater.iteration), name='c')
    second.extend(snapshot(autoload=True), trigger=(3, 'iteration'))
    with caplog.at_level(logging.INFO, 'kusari.training'):
        second.run()
    assert calls == [7, 8, 9]
    assert f'snapshot: resumed from {tmp_path / "snapshot_iter_6"}' in \
        caplog.text
    assert _files(tmp_path) == ['snapshot_iter_3', 'snapshot_iter_6',
                                'snapshot_iter_9']


def test_autoload_without_snapshots_starts_from_scratch(tmp_path):
    trainer = helpers.make_trainer(tmp_path, (2, 'iteration'))
    (tmp_path / '.snapshot_iter_9.0123abcd.tmp').write_bytes(b'partial')
    trainer.extend(snapshot(autoload=True, filename='snapshot_iter_{'
                            '.updater.iteration}'), trigger=(2, 'iteration'))
    trainer.run()
    assert trainer.updater.iteration == 2


def test_autoload_of_an_incompatible_snapshot_is_a_clear_error(tmp_path):
    other = helpers.MLP(n_in=5)
    os.makedirs(tmp_path, exist_ok=True)
    trainer = helpers.make_trainer(tmp_path, (2, 'iteration'))
    trainer.extend(snapshot(autoload=True), trigger=(1, 'iteration'))
    trainer.extend(snapshot_object(other, 'other'))
    trainer.run()
    log_before = _files(tmp_path)
    contents = (tmp_path / 'snapshot_iter_2').read_bytes()

    # A model with another input size cannot take these parameters.
    import _trainer_helpers
    model = _trainer_helpers.Classifier(_trainer_helpers.MLP(n_in=6))
    from kusari.datasets import iterators
    from kusari.training import StandardUpdater, Trainer
    optimizer = optimizers.MomentumSGD()
    optimizer.setup(model)
    iterator = iterators.SerialIterator(helpers.dataset(n_in=6), 4)
    bad = Trainer(StandardUpdater(iterator, optimizer), (4, 'iteration'),
                  out=str(tmp_path))
    bad.extend(snapshot(autoload=True), trigger=(1, 'iteration'))
    with pytest.raises(RuntimeError, match=r'snapshot: cannot resume from '
                                           r'.*snapshot_iter_2: it does '
                                           r'not match the Trainer'):
        bad.run(show_loop_exception_msg=False)
    assert _files(tmp_path) == log_before
    assert (tmp_path / 'snapshot_iter_2').read_bytes() == contents


def _damage(path, how):
    contents = path.read_bytes()
    if how == 'truncated':
        path.write_bytes(contents[:len(contents) // 2])
    else:
        path.write_bytes(numpy.random.RandomState(0).bytes(len(contents)))


@pytest.mark.parametrize('how', ['truncated', 'garbage'])
@pytest.mark.parametrize('fmt', ['npz', 'hdf5'])
def test_autoload_sets_a_damaged_snapshot_aside_and_resumes_from_older(
        tmp_path, how, fmt):
    from kusari import serializers
    from kusari.training.extensions import DamagedSnapshotWarning
    if fmt == 'hdf5':
        pytest.importorskip('h5py')
    savefun = getattr(serializers, f'save_{fmt}')
    first = helpers.make_trainer(tmp_path, (6, 'iteration'))
    first.extend(lambda t: None, name='c')
    first.extend(snapshot(autoload=True, savefun=savefun),
                 trigger=(3, 'iteration'))
    first.run()
    newest = tmp_path / 'snapshot_iter_6'
    _damage(newest, how)
    damaged = newest.read_bytes()

    calls = []
    second = helpers.make_trainer(tmp_path, (9, 'iteration'))
    second.extend(lambda t: calls.append(t.updater.iteration), name='c')
    second.extend(snapshot(autoload=True, savefun=savefun, n_retains=1),
                  trigger=(3, 'iteration'))
    with pytest.warns(DamagedSnapshotWarning) as caught:
        second.run()
    assert calls == [4, 5, 6, 7, 8, 9]
    message = str(caught[0].message)
    assert f'{newest} is damaged and cannot be loaded' in message
    assert f'renamed to {newest}.damaged' in message
    # Kept for inspection, and never taken for a snapshot (n_retains).
    assert _files(tmp_path) == ['snapshot_iter_6.damaged', 'snapshot_iter_9']
    assert (tmp_path / 'snapshot_iter_6.damaged').read_bytes() == damaged


def test_autoload_fails_when_every_snapshot_is_damaged(tmp_path):
    from kusari.training.extensions import DamagedSnapshotWarning
    first = helpers.make_trainer(tmp_path, (6, 'iteration'))
    first.extend(snapshot(autoload=True), trigger=(3, 'iteration'))
    first.run()
    for name in ('snapshot_iter_3', 'snapshot_iter_6'):
        _damage(tmp_path / name, 'garbage')
    (tmp_path / 'snapshot_iter_6.damaged').write_bytes(b'earlier')

    second = helpers.make_trainer(tmp_path, (9, 'iteration'))
    second.extend(snapshot(autoload=True), trigger=(3, 'iteration'))
    with pytest.warns(DamagedSnapshotWarning), pytest.raises(
            RuntimeError, match='every snapshot in .* is damaged'):
        second.run(show_loop_exception_msg=False)
    assert _files(tmp_path) == ['snapshot_iter_3.damaged',
                                'snapshot_iter_6.1.damaged',
                                'snapshot_iter_6.damaged']


@pytest.mark.parametrize('autoload', [True, False])
def test_temporary_files_of_killed_snapshot_writes_are_removed(
        tmp_path, autoload):
    ours = ['.snapshot_iter_4.0123abcd.tmp', '.snapshot_iter_5.89abcdef.tmp',
            # save_npz's inside the writer's
            '..snapshot_iter_5.89abcdef.tmp.01234567.tmp']
    others = ['.log.0123abcd.tmp',  # LogReport's
              '.best.0123abcd.tmp',  # another template's
              '.snapshot_iter_4.tmp', '.snapshot_iter_4.0123ABCD.tmp',
              '.snapshot_iter_4.0123abcd.tmp.bak', 'notes.txt']
    for name in ours + others:
        (tmp_path / name).write_bytes(b'partial')
    trainer = helpers.make_trainer(tmp_path, (2, 'iteration'))
    trainer.extend(snapshot(autoload=autoload), trigger=(2, 'iteration'))
    trainer.run()
    assert _files(tmp_path) == sorted(others + ['snapshot_iter_2'])


def test_snapshot_files_are_found_by_template_and_age(tmp_path):
    from kusari.training.extensions import _snapshot
    for age, name in enumerate(['snap_3.npz', 'snap_1.npz', 'snap_2.npz',
                                'other_1.npz', 'snap_4.txt']):
        path = tmp_path / name
        path.touch()
        os.utime(path, (1000 + age, 1000 + age))
    template = 'snap_{.updater.iteration}.npz'
    assert [name for _, name in _snapshot._find_snapshot_files(
        template, str(tmp_path))] == ['snap_3.npz', 'snap_1.npz',
                                      'snap_2.npz']
    assert _snapshot._find_latest_snapshot(template, str(tmp_path)) == \
        'snap_2.npz'
    assert _snapshot._find_stale_snapshots(template, str(tmp_path), 1) == [
        'snap_3.npz', 'snap_1.npz']
    assert _snapshot._find_stale_snapshots(template, str(tmp_path), 5) == []
    assert _snapshot._find_latest_snapshot(template,
                                           str(tmp_path / 'none')) is None


def test_snapshot_bad_arguments():
    with pytest.raises(TypeError, match='either a writer or a savefun'):
        snapshot(savefun=save_npz, writer=snapshot_writers.SimpleWriter())
    with pytest.raises(TypeError, match='n_retains must be an int'):
        snapshot(n_retains=2.0)
    with pytest.raises(ValueError, match='autoload needs a str filename'):
        snapshot(autoload=True, filename=lambda t: 'x')
    with pytest.raises(ValueError, match='autoload can only load'):
        snapshot(autoload=True, savefun=lambda path, obj: None)
    with pytest.raises(TypeError, match='condition must be callable'):
        snapshot(condition=True)
    with pytest.raises(NotImplementedError, match='must implement'):
        snapshot_writers.Writer()('f', '.', None)


def test_queue_items_carry_their_task_as_in_chainer():
    # Chainer's queue protocol: (task, filename, outdir, target), ended by
    # None; a task of None is the writer's own.
    import queue
    done = []
    writer = snapshot_writers.ThreadQueueWriter(
        task=lambda *args: done.append(('own',) + args))
    q = queue.Queue()
    for item in [(lambda *args: done.append(('given',) + args), 'a', 'd', 1),
                 (None, 'b', 'd', 2), None]:
        q.put(item)
    writer.consume(q)
    assert done == [('given', 'a', 'd', 1), ('own', 'b', 'd', 2)]
    writer('c', 'd', 3)
    writer.finalize()
    assert done[-1] == ('own', 'c', 'd', 3)


def test_writers_take_workers_of_any_kind():
    # A subclass (or Chainer's tests, with mocks) may make workers that are
    # neither threads nor processes: they are started and joined.
    from unittest import mock
    worker = mock.MagicMock()
    writer = snapshot_writers.ThreadWriter()
    writer.create_worker = mock.MagicMock(return_value=worker)
    writer('a', '.', None)
    writer('b', '.', None)
    writer.finalize()
    assert worker.start.call_count == worker.join.call_count == 2
