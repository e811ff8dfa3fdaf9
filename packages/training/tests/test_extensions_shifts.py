"""The optimizer-attribute shifts follow their documented curves and
resume where they stopped."""
import pytest

from kusari.serializers import DictionarySerializer, NpzDeserializer
from kusari.training import testing
from kusari.training import extensions as E


def _values(shift, n, lr=1.):
    """The attribute after initialization and after each of n calls."""
    trainer = testing.get_trainer_with_mock_updater()
    optimizer = trainer.updater.get_optimizer('main')
    optimizer.lr = lr
    shift.initialize(trainer)
    values = [optimizer.lr]
    for _ in range(n):
        shift(trainer)
        values.append(optimizer.lr)
    return values


@pytest.mark.parametrize('shift, expected', [
    (E.ExponentialShift('lr', 0.5), [1, .5, .25, .125]),
    (E.ExponentialShift('lr', 0.5, init=2., target=0.6), [2, 1, .6, .6]),
    (E.ExponentialShift('lr', 2., target=3.), [1, 2, 3, 3]),
    (E.InverseShift('lr', 1., 1.), [1, 1 / 2, 1 / 3, 1 / 4]),
    (E.InverseShift('lr', 1., 2., target=0.2), [1, .25, .2, .2]),
    (E.LinearShift('lr', (1., 2.), (1, 3)), [1, 1, 1.5, 2]),
    (E.MultistepShift('lr', 0.1, [1, 3], 1.), [1, .1, .1, .01]),
    (E.PolynomialShift('lr', 2., 2), [1, .25, 0, 0]),
    (E.PolynomialShift('lr', 1., 4, target=0.6), [1, .75, .6, .6]),
    (E.StepShift('lr', 0.5, 2), [1, 1, .5, .5]),
    (E.StepShift('lr', 0.5, 1, init=4., target=1.5), [4, 2, 1.5, 1.5]),
    (E.WarmupShift('lr', 0., 2, 1.), [0, .5, 1, 1]),
])
def test_shift_curves(shift, expected):
    assert _values(shift, 3) == pytest.approx(expected)


def test_shift_default_trigger_and_other_attribute():
    shift = E.ExponentialShift('momentum', 0.5)
    assert shift.trigger == (1, 'iteration')
    trainer = testing.get_trainer_with_mock_updater()
    optimizer = trainer.updater.get_optimizer('main')
    optimizer.momentum = 0.8
    shift.initialize(trainer)
    shift(trainer)
    assert optimizer.momentum == pytest.approx(0.4)


def test_a_given_optimizer_is_shifted():
    trainer = testing.get_trainer_with_mock_updater()

    class Other:
        lr = 4.

    other = Other()
    shift = E.StepShift('lr', 0.5, 1, optimizer=other)
    shift.initialize(trainer)
    shift(trainer)
    assert other.lr == 2. and trainer.updater.get_optimizer('main').lr == \
        0.01


@pytest.mark.parametrize('make', [
    lambda: E.ExponentialShift('lr', 0.7),
    lambda: E.InverseShift('lr', 0.3, 0.5),
    lambda: E.LinearShift('lr', (0.5, 0.1), (1, 4)),
    lambda: E.MultistepShift('lr', 0.5, [2, 4], 1.),
    lambda: E.PolynomialShift('lr', 0.5, 6),
    lambda: E.StepShift('lr', 0.5, 2),
    lambda: E.WarmupShift('lr', 0.1, 3, 1.),
])
def test_a_resumed_shift_continues_the_curve(make):
    straight = _values(make(), 6, lr=0.9)
    first = make()
    before = _values(first, 3, lr=0.9)
    saver = DictionarySerializer()
    first.serialize(saver)
    resumed = make()
    resumed.serialize(NpzDeserializer(saver.target))
    # A resumed run starts from a fresh optimizer, which gives the initial
    # value again (the snapshot keeps only _t and _last_value, as
    # Chainer's): the shift sets the value it had reached.
    after = _values(resumed, 3, lr=0.9)
    assert before[:-1] + after == pytest.approx(straight)


@pytest.mark.parametrize('make, message', [
    (lambda: E.ExponentialShift('lr', -1), 'rate must be >= 0'),
    (lambda: E.InverseShift('lr', -1, 1), 'gamma must be >= 0'),
    (lambda: E.LinearShift('lr', (1, 2), (3, 3)), 'time_range'),
    (lambda: E.MultistepShift('lr', 0.1, [3, 1], 1.), 'increasing'),
    (lambda: E.PolynomialShift('lr', 1, 0), 'max_count must be positive'),
    (lambda: E.StepShift('lr', 0.1, 0), 'step must be positive'),
    (lambda: E.WarmupShift('lr', 0, 0, 1), 'warmup_iter must be positive'),
])
def test_shift_bad_arguments(make, message):
    with pytest.raises(ValueError, match=message):
        make()
    with pytest.raises(TypeError, match='attr must be the name'):
        E.ExponentialShift(3, 0.5)


def test_a_shift_saves_chainers_keys():
    # Chainer 7.8.1's snapshot of a shift holds only these two values, so
    # a Chainer snapshot must load with nothing more (differential check).
    shift = E.ExponentialShift('lr', 0.5)
    _values(shift, 2, lr=0.8)
    saver = DictionarySerializer()
    shift.serialize(saver)
    assert set(saver.target) == {'_t', '_last_value'}
