"""Triggers fire at the documented points, and a trigger saved and loaded
mid-run fires exactly as one that was never interrupted."""
import hypothesis
import hypothesis.strategies as st
import numpy
import pytest

from kusari.serializers import DictionarySerializer, NpzDeserializer
from kusari.training import get_trigger, testing, triggers


class _Clock:
    """A stand-in trainer: an updater with a settable iteration."""

    def __init__(self, iter_per_epoch=4):
        self.trainer = testing.get_trainer_with_mock_updater(
            iter_per_epoch=iter_per_epoch)
        self.updater = self.trainer.updater
        self.trainer.observation = {}

    def step(self, observation=None):
        self.updater.update()
        self.trainer.observation = observation or {}


def _fires(trigger, clock, n, observations=None):
    fired = []
    for i in range(n):
        clock.step(observations[i] if observations else None)
        if trigger(clock.trainer):
            fired.append(clock.updater.iteration)
    return fired


def _round_trip(source, destination):
    saver = DictionarySerializer()
    source.serialize(saver)
    destination.serialize(NpzDeserializer(saver.target))


@pytest.mark.parametrize('period, unit, expected', [
    (3, 'iteration', [3, 6, 9]),
    (1, 'epoch', [4, 8]),
    (0.5, 'epoch', [2, 4, 6, 8, 10]),
    (2, 'epoch', [8]),
])
def test_interval_trigger_fires_every_period(period, unit, expected):
    clock = _Clock(iter_per_epoch=4)
    fired = _fires(triggers.IntervalTrigger(period, unit), clock, 11)
    assert fired == expected


def test_interval_trigger_does_not_fire_before_training():
    clock = _Clock()
    assert not triggers.IntervalTrigger(1, 'iteration')(clock.trainer)


def test_interval_trigger_fires_once_for_a_crossing_seen_late():
    clock = _Clock()
    trigger = triggers.IntervalTrigger(3, 'iteration')
    assert not trigger(clock.trainer)
    for _ in range(7):
        clock.step()
    assert trigger(clock.trainer)
    assert not trigger(clock.trainer)


def test_interval_trigger_training_length():
    assert triggers.IntervalTrigger(5, 'epoch').get_training_length() == (
        5, 'epoch')


@pytest.mark.parametrize('unit', ['epochs', 'iter', None, 'Epoch'])
def test_unknown_unit_is_a_clear_error(unit):
    with pytest.raises(ValueError, match="IntervalTrigger: unit must be "
                                         "'epoch' or 'iteration'"):
        triggers.IntervalTrigger(1, unit)
    with pytest.raises(ValueError, match='ManualScheduleTrigger: unit'):
        triggers.ManualScheduleTrigger([1], unit)
    with pytest.raises(ValueError, match='unit must be'):
        get_trigger((1, unit))


@pytest.mark.parametrize('period', [0, -1, float('nan'), 'x', True])
def test_bad_period_is_a_clear_error(period):
    with pytest.raises(ValueError, match='period must be a positive'):
        triggers.IntervalTrigger(period, 'iteration')


def test_get_trigger():
    def trigger(trainer):
        return True
    assert get_trigger(trigger) is trigger
    assert not get_trigger(None)(None)
    made = get_trigger((2, 'epoch'))
    assert isinstance(made, triggers.IntervalTrigger)
    assert (made.period, made.unit) == (2, 'epoch')
    for bad in [(1,), (1, 'epoch', 2), 'epoch', 3]:
        with pytest.raises(TypeError, match=r'get_trigger: expected'):
            get_trigger(bad)


def test_manual_schedule_trigger():
    clock = _Clock(iter_per_epoch=4)
    trigger = triggers.ManualScheduleTrigger([2, 5, 5, 9], 'iteration')
    assert _fires(trigger, clock, 8) == [2, 5]
    assert not trigger.finished
    assert _fires(trigger, clock, 2) == [9]
    assert trigger.finished
    assert trigger.get_training_length() == (9, 'iteration')
    epochs = triggers.ManualScheduleTrigger(1.5, 'epoch')
    assert _fires(epochs, _Clock(iter_per_epoch=4), 8) == [6]
    with pytest.raises(ValueError, match='points must be'):
        triggers.ManualScheduleTrigger([], 'epoch')


def test_once_trigger():
    clock = _Clock()
    trigger = triggers.OnceTrigger()
    assert _fires(trigger, clock, 3) == [1]
    assert trigger.finished
    resumed = triggers.OnceTrigger(call_on_resume=True)
    _round_trip(trigger, resumed)
    assert _fires(resumed, clock, 3) == [4]
    plain = triggers.OnceTrigger()
    _round_trip(trigger, plain)
    assert _fires(plain, clock, 3) == []


@pytest.mark.parametrize('make, finished_on_load, fires', [
    (lambda: triggers.OnceTrigger(), True, []),
    (lambda: triggers.ManualScheduleTrigger([2, 9], 'iteration'), False,
     [9]),
])
def test_a_snapshot_without_the_trigger_state_warns_and_loads(
        make, finished_on_load, fires):
    # Chainer's older snapshots saved no state of these triggers: a
    # OnceTrigger takes its first call as past, a schedule counts on from
    # the last update.
    clock = _Clock()
    _fires(make(), clock, 4)
    trigger = make()
    with pytest.warns(UserWarning, match='no state of this trigger'):
        trigger.serialize(NpzDeserializer({}))
    assert trigger.finished is finished_on_load
    assert _fires(trigger, clock, 6) == fires
    assert trigger.finished


def test_time_trigger(monkeypatch):
    now = [0.]
    trainer = testing.get_trainer_with_mock_updater()
    monkeypatch.setattr(type(trainer), 'elapsed_time',
                        property(lambda self: now[0]))
    trigger = triggers.TimeTrigger(1.)
    fired = []
    for t in [0.5, 1.0, 1.1, 1.5, 2.2, 5.0, 5.1]:
        now[0] = t
        fired.append(trigger(trainer))
    assert fired == [False, False, True, False, True, True, True]
    loaded = triggers.TimeTrigger(1.)
    _round_trip(trigger, loaded)
    now[0] = 5.5
    assert loaded(trainer) == trigger(trainer)


@pytest.mark.parametrize('cls, values, expected', [
    (triggers.MaxValueTrigger, [1, 3, 2, 5, 5, 4], [1, 2, 4]),
    (triggers.MinValueTrigger, [5, 3, 4, 1, 1, 2], [1, 2, 4]),
])
def test_min_max_value_triggers(cls, values, expected):
    clock = _Clock(iter_per_epoch=1)
    trigger = cls('v', trigger=(1, 'iteration'))
    observations = [{'v': numpy.float32(v)} for v in values]
    assert _fires(trigger, clock, len(values), observations) == expected


def test_best_value_trigger_compares_interval_means():
    clock = _Clock(iter_per_epoch=2)
    trigger = triggers.BestValueTrigger(
        'v', lambda best, new: new > best, trigger=(1, 'epoch'))
    values = [1., 3., 0., 5., 2., 2.]
    fired = _fires(trigger, clock, 6, [{'v': v} for v in values])
    assert fired == [2, 4]


def test_value_trigger_names_a_missing_key():
    clock = _Clock(iter_per_epoch=1)
    trigger = triggers.MaxValueTrigger('validation/main/accuracy',
                                       trigger=(1, 'iteration'))
    clock.step({'main/loss': 1.})
    with pytest.raises(KeyError, match='validation/main/accuracy'):
        trigger(clock.trainer)


def test_early_stopping_trigger():
    clock = _Clock(iter_per_epoch=1)
    trigger = triggers.EarlyStoppingTrigger(
        check_trigger=(1, 'epoch'), monitor='main/loss', patience=2,
        max_trigger=(100, 'epoch'))
    losses = [3., 2., 2.5, 1.5, 1.6, 1.7, 1.]
    fired = _fires(trigger, clock, len(losses),
                   [{'main/loss': v} for v in losses])
    assert fired == [6]
    assert trigger.get_training_length() == (100, 'epoch')


def test_early_stopping_modes_and_max_trigger():
    auto = triggers.EarlyStoppingTrigger(monitor='validation/main/accuracy',
                                         patience=1)
    assert auto._compare(2, 1)
    clock = _Clock(iter_per_epoch=1)
    capped = triggers.EarlyStoppingTrigger(max_trigger=(3, 'iteration'))
    assert _fires(capped, clock, 4, [{'main/loss': 1.}] * 4) == [3]
    with pytest.raises(ValueError, match='mode must be'):
        triggers.EarlyStoppingTrigger(mode='best')
    with pytest.raises(ValueError, match='patience must be'):
        triggers.EarlyStoppingTrigger(patience=0)
    assert triggers.EarlyStoppingTrigger(patients=5).patience == 5
    with pytest.raises(TypeError, match='patience or its alias patients'):
        triggers.EarlyStoppingTrigger((1, 'epoch'), 'main/loss', 10,
                                      patients=3)


def _value_trigger_factories():
    return {
        'interval-iteration': lambda: triggers.IntervalTrigger(3, 'iteration'),
        'interval-epoch': lambda: triggers.IntervalTrigger(0.75, 'epoch'),
        'manual': lambda: triggers.ManualScheduleTrigger([2, 7, 11],
                                                         'iteration'),
        'once': lambda: triggers.OnceTrigger(),
        'max': lambda: triggers.MaxValueTrigger('v', (2, 'iteration')),
        'min': lambda: triggers.MinValueTrigger('v', (1, 'epoch')),
        'early': lambda: triggers.EarlyStoppingTrigger(
            (2, 'iteration'), 'v', patience=2, max_trigger=(13, 'iteration')),
    }


@hypothesis.settings(max_examples=40, deadline=None)
@hypothesis.given(
    name=st.sampled_from(sorted(_value_trigger_factories())),
    cut=st.integers(0, 15),
    values=st.lists(st.integers(0, 5), min_size=16, max_size=16))
def test_a_resumed_trigger_fires_as_an_uninterrupted_one(name, cut, values):
    make = _value_trigger_factories()[name]
    observations = [{'v': float(v)} for v in values]
    straight = _fires(make(), _Clock(iter_per_epoch=4), 16, observations)

    first, clock = make(), _Clock(iter_per_epoch=4)
    before = _fires(first, clock, cut, observations[:cut])
    resumed = make()
    _round_trip(first, resumed)
    after = _fires(resumed, clock, 16 - cut, observations[cut:])
    assert before + after == straight


@pytest.mark.parametrize('make', [
    lambda: triggers.IntervalTrigger(0.5, 'epoch'),
    lambda: triggers.ManualScheduleTrigger([2, 5], 'iteration'),
])
def test_a_trigger_saves_chainers_keys(make):
    # Chainer 7.8.1 saves both progress values (found by the differential
    # check): its snapshots load here and ours there.
    clock = _Clock()
    trigger = make()
    _fires(trigger, clock, 3)
    saver = DictionarySerializer()
    trigger.serialize(saver)
    assert set(saver.target) - {'finished'} == {'previous_iteration',
                                                'previous_epoch_detail'}
    assert (saver.target['previous_iteration'],
            saver.target['previous_epoch_detail']) == (3, 0.75)
    fresh = DictionarySerializer()
    make().serialize(fresh)
    # Never called: the start of training, as Chainer's triggers hold it.
    assert (fresh.target['previous_iteration'],
            fresh.target['previous_epoch_detail']) == (0, 0.)


@pytest.mark.parametrize('make, first_fire', [
    (lambda: triggers.IntervalTrigger(2, 'iteration'), True),
    (lambda: triggers.IntervalTrigger(1, 'epoch'), True),
    (lambda: triggers.ManualScheduleTrigger([2], 'iteration'), True),
    (lambda: triggers.ManualScheduleTrigger(0.5, 'epoch'), True),
    (lambda: triggers.ManualScheduleTrigger([6], 'iteration'), False),
])
def test_a_first_call_late_sees_every_point_since_the_start(make,
                                                            first_fire):
    # As in Chainer: a trigger first asked at iteration 5 fires for a point
    # passed at iteration 2 (Chainer's test_trigger_sparse_call).
    clock = _Clock(iter_per_epoch=4)
    for _ in range(5):
        clock.step()
    trigger = make()
    assert trigger(clock.trainer) is first_fire
    assert not trigger(clock.trainer)


def test_a_trigger_loads_chainers_state():
    # A Chainer snapshot taken after iteration 3 of 4 per epoch.
    clock = _Clock()
    _fires(triggers.IntervalTrigger(1, 'epoch'), clock, 3)
    trigger = triggers.IntervalTrigger(1, 'epoch')
    trigger.serialize(NpzDeserializer({
        'previous_iteration': numpy.array(3),
        'previous_epoch_detail': numpy.array(0.75)}))
    assert _fires(trigger, clock, 5) == [4, 8]


def test_a_trigger_missing_from_the_snapshot_warns_and_guesses():
    # As Chainer: a trigger of an extension added since the snapshot was
    # taken warns, then counts from the last update (found by the
    # differential check of autoload).
    clock = _Clock()
    _fires(triggers.IntervalTrigger(1, 'epoch'), clock, 3)
    trigger = triggers.IntervalTrigger(1, 'epoch')
    with pytest.warns(UserWarning, match='no state of this trigger'):
        trigger.serialize(NpzDeserializer({}))
    assert _fires(trigger, clock, 5) == [4, 8]
