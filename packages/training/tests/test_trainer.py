"""The training loop: extension registration, order, triggers, errors."""
import numpy
import pytest

from kusari.training import extension, make_extension, testing, Extension

import _trainer_helpers as helpers


@pytest.fixture
def trainer(tmp_path):
    trainer = testing.get_trainer_with_mock_updater((5, 'iteration'))
    trainer.out = str(tmp_path / 'result')
    return trainer


def test_run_calls_extensions_by_trigger_and_stops(trainer):
    calls = []
    trainer.extend(lambda t: calls.append(('every', t.updater.iteration)),
                   name='every')
    trainer.extend(lambda t: calls.append(('second', t.updater.iteration)),
                   name='second', trigger=(2, 'iteration'))
    trainer.run()
    assert trainer.updater.iteration == 5
    assert [c for c in calls if c[0] == 'every'] == [
        ('every', i) for i in range(1, 6)]
    assert [c for c in calls if c[0] == 'second'] == [
        ('second', 2), ('second', 4)]


def test_extensions_run_by_priority_then_insertion(trainer):
    order = []
    for name, priority in [('reader', extension.PRIORITY_READER),
                           ('writer', extension.PRIORITY_WRITER),
                           ('reader2', extension.PRIORITY_READER),
                           ('editor', extension.PRIORITY_EDITOR)]:
        trainer.extend(lambda t, n=name: order.append(n), name=name,
                       priority=priority)
    trainer.stop_trigger = testing.get_trainer_with_mock_updater(
        (1, 'iteration')).stop_trigger
    trainer.run()
    assert order == ['writer', 'editor', 'reader', 'reader2']


def test_extend_names(trainer):
    class Named(Extension):
        def __call__(self, trainer):
            pass

    @make_extension(default_name='custom')
    def decorated(trainer):
        pass

    def plain(trainer):
        pass

    first, second = Named(), Named()
    trainer.extend(first)
    trainer.extend(second)
    trainer.extend(decorated)
    trainer.extend(plain)
    trainer.extend(plain, name='given')
    assert first.name == 'Named' and second.name == 'Named_1'
    assert trainer.get_extension('Named_1') is second
    assert trainer.get_extension('custom') is decorated
    assert trainer.get_extension('given') is plain
    with pytest.raises(ValueError, match="no extension named 'missing'"):
        trainer.get_extension('missing')


def test_extend_bad_input(trainer):
    with pytest.raises(TypeError, match='an extension must be callable'):
        trainer.extend(object())
    with pytest.raises(ValueError, match='"training" is reserved'):
        trainer.extend(lambda t: None, name='training')
    with pytest.raises(ValueError, match='invoke_before_training'):
        trainer.extend(lambda t: None, invoke_before_training=True)
    with pytest.raises(TypeError, match=r"\(period, unit\) pair"):
        trainer.extend(lambda t: None, name='x', trigger='epoch')
    with pytest.raises(ValueError, match='unit must be'):
        trainer.extend(lambda t: None, name='x', trigger=(1, 'epocs'))

    class Nameless:
        __call__ = staticmethod(lambda trainer: None)
    with pytest.raises(TypeError, match='no name is given'):
        trainer.extend(Nameless())


def test_extension_trigger_priority_from_extend_or_extension(trainer):
    @make_extension(trigger=(2, 'iteration'), priority=7)
    def ext(trainer):
        pass

    trainer.extend(ext)
    entry = trainer._extensions['ext']
    assert entry.priority == 7 and entry.trigger.period == 2
    trainer.extend(ext, name='other', trigger=(3, 'epoch'), priority=1)
    entry = trainer._extensions['other']
    assert entry.priority == 1 and entry.trigger.unit == 'epoch'


def test_initialize_call_before_training_and_finalize(trainer):
    events = []

    class Tracked(Extension):
        def initialize(self, trainer):
            events.append(('initialize', trainer.updater.iteration))

        def __call__(self, trainer):
            events.append(('call', trainer.updater.iteration))

        def finalize(self):
            events.append(('finalize',))

    trainer.extend(Tracked(), trigger=(5, 'iteration'),
                   call_before_training=True)
    trainer.run()
    assert events == [('initialize', 0), ('call', 0), ('call', 5),
                      ('finalize',)]


def test_an_error_in_the_loop_runs_on_error_and_finalize_then_reraises(
        trainer, capsys):
    events = []

    class Failing(Extension):
        def __call__(self, trainer):
            if trainer.updater.iteration == 3:
                raise ZeroDivisionError('boom')

        def on_error(self, trainer, exc, tb):
            events.append(('on_error', type(exc).__name__, tb is not None))

        def finalize(self):
            events.append(('finalize',))

    finalized = []
    trainer.updater.finalize = lambda: finalized.append(True)
    trainer.extend(Failing())
    with pytest.raises(ZeroDivisionError, match='boom'):
        trainer.run()
    assert events == [('on_error', 'ZeroDivisionError', True),
                      ('finalize',)]
    assert finalized == [True]
    assert 'Exception in main training loop: boom' in capsys.readouterr().err
    with pytest.raises(RuntimeError, match='already run'):
        trainer.run()


def test_a_failing_error_handler_does_not_hide_the_error(trainer, capsys):
    def failing(trainer):
        raise KeyError('original')

    def bad_handler(trainer, exc, tb):
        raise ValueError('handler')

    failing.on_error = bad_handler
    trainer.extend(failing)
    with pytest.raises(KeyError, match='original'):
        trainer.run(show_loop_exception_msg=False)
    err = capsys.readouterr().err
    assert 'Exception in error handler of failing: handler' in err
    assert 'Exception in main training loop' not in err


def test_elapsed_time(trainer):
    with pytest.raises(RuntimeError, match='not started'):
        trainer.elapsed_time
    seen = []
    trainer.extend(lambda t: seen.append(t.elapsed_time), name='time')
    trainer.run()
    assert all(b >= a >= 0 for a, b in zip(seen, seen[1:]))
    assert trainer.elapsed_time >= seen[-1]
    assert trainer.elapsed_time == trainer.elapsed_time


def test_is_before_training(trainer):
    seen = []
    trainer.extend(lambda t: seen.append(t.is_before_training), name='x',
                   call_before_training=True, trigger=(5, 'iteration'))
    trainer.run()
    assert seen == [True, False]


def test_observation_and_reporter_names(tmp_path):
    trainer = helpers.make_trainer(tmp_path, (2, 'iteration'))
    seen = []
    trainer.extend(lambda t: seen.append(dict(t.observation)), name='seen')
    trainer.run()
    assert len(seen) == 2
    assert {'main/loss', 'main/accuracy', 'main/predictor/sum_y'} <= set(
        seen[0])
    assert seen[0]['main/loss'] is not seen[1]['main/loss']
    assert (tmp_path).is_dir()


def test_extensions_argument_and_out_directory(tmp_path):
    out = tmp_path / 'deep' / 'out'
    calls = []
    trainer = testing.get_trainer_with_mock_updater(
        (2, 'iteration'), extensions=[lambda t: calls.append(1)])
    trainer.out = str(out)
    trainer.run()
    assert calls == [1, 1] and out.is_dir()


def test_trainer_bad_arguments():
    with pytest.raises(TypeError, match='updater must be an Updater'):
        from kusari.training import Trainer
        Trainer(object())


def test_trainer_serializes_updater_triggers_extensions(tmp_path):
    from kusari.serializers import DictionarySerializer
    trainer = helpers.make_trainer(tmp_path, (3, 'iteration'))

    class Counting(Extension):
        count = 0

        def __call__(self, trainer):
            self.count += 1

        def serialize(self, serializer):
            self.count = serializer('count', self.count)

    trainer.extend(Counting(), trigger=(1, 'iteration'))
    trainer.run()
    saver = DictionarySerializer()
    saver.save(trainer)
    keys = set(saver.target)
    assert {'updater/iteration', 'updater/iterator:main/current_position',
            'updater/optimizer:main/t', 'updater/model:main/predictor/l1/W',
            'stop_trigger/previous_iteration',
            'stop_trigger/previous_epoch_detail',
            'extensions/Counting/count',
            'extension_triggers/Counting/previous_iteration',
            '_snapshot_elapsed_time'} <= keys
    assert int(saver.target['extensions/Counting/count']) == 3
    numpy.testing.assert_array_equal(
        saver.target['updater/model:main/predictor/l1/W'],
        trainer.updater.get_optimizer('main').target.predictor.l1.W.array)


@pytest.mark.parametrize('fmt', ['npz', 'hdf5'])
def test_snapshot_restores_numpy_random(tmp_path, fmt):
    from kusari import serializers
    if fmt == 'hdf5':
        pytest.importorskip('h5py')
    save = getattr(serializers, f'save_{fmt}')
    load = getattr(serializers, f'load_{fmt}')
    path = str(tmp_path / f'trainer.{fmt}')
    trainer = helpers.make_trainer(tmp_path)
    numpy.random.seed(0)
    save(path, trainer)
    expected = numpy.random.random_sample(4)
    numpy.random.seed(1)
    load(path, helpers.make_trainer(tmp_path))
    numpy.testing.assert_array_equal(numpy.random.random_sample(4), expected)


def test_snapshot_without_random_state_leaves_numpy_random(tmp_path):
    # Chainer's snapshots hold no random_state.
    from kusari.serializers import DictionarySerializer, NpzDeserializer
    saver = DictionarySerializer()
    saver.save(helpers.make_trainer(tmp_path))
    stored = {key: value for key, value in saver.target.items()
              if not key.startswith('random_state/')}
    assert len(stored) < len(saver.target)
    numpy.random.seed(2)
    expected = numpy.random.random_sample(4)
    numpy.random.seed(2)
    NpzDeserializer(stored).load(helpers.make_trainer(tmp_path))
    numpy.testing.assert_array_equal(numpy.random.random_sample(4), expected)


_X = numpy.linspace(-1, 1, 24, dtype=numpy.float32).reshape(4, 6)
_W = numpy.linspace(-1, 1, 18, dtype=numpy.float32).reshape(3, 6)


@pytest.mark.parametrize('noise', [
    lambda F: F.dropout(_X, 0.4),
    lambda F: F.gaussian(_X, _X),
    lambda F: F.zoneout(_X, -_X, 0.4),
    lambda F: F.simplified_dropconnect(_X, _W, ratio=0.4),
    lambda F: F.rrelu(_X),
    lambda F: F.gumbel_softmax(_X),
], ids=['dropout', 'gaussian', 'zoneout', 'simplified_dropconnect', 'rrelu',
        'gumbel_softmax'])
def test_noise_functions_draw_what_a_snapshot_restores(tmp_path, noise):
    from kusari.autograd import functions as F
    from kusari.serializers import load_npz, save_npz
    path = str(tmp_path / 'snapshot.npz')
    save_npz(path, helpers.make_trainer(tmp_path))
    first = noise(F).array
    load_npz(path, helpers.make_trainer(tmp_path))
    numpy.testing.assert_array_equal(noise(F).array, first)
    assert not numpy.array_equal(noise(F).array, first)  # it is random
