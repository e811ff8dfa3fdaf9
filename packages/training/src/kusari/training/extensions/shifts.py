"""Extensions that change an optimizer attribute (the learning rate,
usually) as training goes on.

Each is called every iteration by default; at its ``t``-th call it sets the
attribute to a value that depends only on ``t`` (and the initial value),
so a run resumed from a snapshot (which keeps ``t``) sets the same values
as an uninterrupted one.
"""
import bisect

from kusari.training import _serialization
from kusari.training import extension


class _Shift(extension.Extension):
    """Common part of the shifts: subclasses define :meth:`_value`."""

    def __init__(self, attr, init=None, target=None, optimizer=None):
        if not isinstance(attr, str):
            raise TypeError(f'{type(self).__name__}: attr must be the name '
                            f'of an optimizer attribute, got {attr!r}')
        self._attr = attr
        self._init = init
        self._target = target
        self._optimizer = optimizer
        self._t = 0
        self._last_value = None

    def _value(self, t):
        """The attribute value after ``t`` calls."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement _value')

    def _require(self, ok, name, value, expected):
        """Raise unless ``ok``: argument ``name`` must be ``expected``."""
        if not ok:
            raise ValueError(f'{type(self).__name__}: {name} must be '
                             f'{expected}, got {value!r}')

    def _get_optimizer(self, trainer):
        return self._optimizer or trainer.updater.get_optimizer('main')

    def _clipped(self, value):
        """``value``, stopped at ``target`` on its way from ``init``."""
        if self._target is None:
            return value
        if self._init >= self._target:
            return max(value, self._target)
        return min(value, self._target)

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        if self._init is None:
            self._init = getattr(optimizer, self._attr)
        value = (self._value(self._t) if self._last_value is None
                 else self._last_value)
        setattr(optimizer, self._attr, value)

    def __call__(self, trainer):
        self._t += 1
        value = self._value(self._t)
        setattr(self._get_optimizer(trainer), self._attr, value)
        self._last_value = value

    def serialize(self, serializer):
        """Save or load the call count and the last value (Chainer's keys:
        the initial value is taken again from the optimizer)."""
        self._t = int(serializer('_t', self._t))
        value = _serialization.serialize_value(
            serializer, '_last_value', self._last_value)
        self._last_value = None if value is None else float(value)


class _Scaling(_Shift):
    """Base of the shifts setting ``init * factor(t)`` (stopped at
    ``target``): subclasses define :meth:`_factor`."""

    def _factor(self, t):
        raise NotImplementedError(
            f'{type(self).__name__} must implement _factor')

    def _value(self, t):
        return self._clipped(self._init * self._factor(t))


class ExponentialShift(_Scaling):
    """Sets the attribute to ``init * rate ** t``.

    Args:
        attr (str): Name of the optimizer attribute.
        rate (float): Factor per call.
        init (float): Initial value (default: the attribute's value at the
            start of training).
        target (float): Value at which the shift stops.
        optimizer: Optimizer to change (default the ``'main'`` one).
    """

    def __init__(self, attr, rate, init=None, target=None, optimizer=None):
        self._require(rate >= 0, 'rate', rate, '>= 0')
        super().__init__(attr, init, target, optimizer)
        self._rate = rate

    def _factor(self, t):
        return self._rate ** t


class InverseShift(_Scaling):
    """Sets the attribute to ``init * (1 + gamma * t) ** (-power)``.

    Args:
        attr (str): Name of the optimizer attribute.
        gamma (float), power (float): Parameters of the curve.
        init, target, optimizer: As in :class:`ExponentialShift`.
    """

    def __init__(self, attr, gamma, power, init=None, target=None,
                 optimizer=None):
        self._require(gamma >= 0, 'gamma', gamma, '>= 0')
        super().__init__(attr, init, target, optimizer)
        self._gamma = gamma
        self._power = power

    def _factor(self, t):
        return (1 + self._gamma * t) ** (-self._power)


class LinearShift(_Shift):
    """Moves the attribute linearly from ``value_range[0]`` at call
    ``time_range[0]`` to ``value_range[1]`` at call ``time_range[1]``
    (constant before and after).

    Args:
        attr (str): Name of the optimizer attribute.
        value_range (tuple of float): First and last value.
        time_range (tuple of int): Calls at which the shift starts and
            ends.
        optimizer: Optimizer to change (default the ``'main'`` one).
    """

    def __init__(self, attr, value_range, time_range, optimizer=None):
        if len(value_range) != 2 or len(time_range) != 2 \
                or time_range[0] >= time_range[1]:
            raise ValueError(f'LinearShift: value_range and time_range '
                             f'must be pairs with time_range[0] < '
                             f'time_range[1], got {value_range!r} and '
                             f'{time_range!r}')
        super().__init__(attr, value_range[0], None, optimizer)
        self._value_range = value_range
        self._time_range = time_range

    def _value(self, t):
        (t1, t2), (v1, v2) = self._time_range, self._value_range
        if t <= t1:
            return v1
        if t >= t2:
            return v2
        return v1 + (t - t1) / (t2 - t1) * (v2 - v1)


class MultistepShift(_Scaling):
    """Sets the attribute to ``init * gamma ** k``, ``k`` being the number
    of ``step_value`` entries already reached.

    Args:
        attr (str): Name of the optimizer attribute.
        gamma (float): Factor at each step.
        step_value (list of int): Calls at which to step, increasing.
        init (float): Initial value.
        optimizer: Optimizer to change (default the ``'main'`` one).
    """

    def __init__(self, attr, gamma, step_value, init, optimizer=None):
        step_value = list(step_value)
        self._require(step_value == sorted(step_value), 'step_value',
                      step_value, 'increasing')
        super().__init__(attr, init, None, optimizer)
        self._gamma = gamma
        self._step_value = step_value

    def _factor(self, t):
        return self._gamma ** bisect.bisect_right(self._step_value, t)


class PolynomialShift(_Scaling):
    """Sets the attribute to ``init * (1 - t / max_count) ** rate``
    (``init * 0 ** rate`` after ``max_count`` calls).

    Args:
        attr (str): Name of the optimizer attribute.
        rate (float): Exponent.
        max_count (int): Number of calls at which the factor reaches 0.
        init, target, optimizer: As in :class:`ExponentialShift`.
    """

    def __init__(self, attr, rate, max_count, init=None, target=None,
                 optimizer=None):
        self._require(max_count > 0, 'max_count', max_count, 'positive')
        super().__init__(attr, init, target, optimizer)
        self._rate = rate
        self._max_count = max_count

    def _factor(self, t):
        return max(1 - t / self._max_count, 0) ** self._rate


class StepShift(_Scaling):
    """Sets the attribute to ``init * gamma ** floor(t / step)``.

    Args:
        attr (str): Name of the optimizer attribute.
        gamma (float): Factor at each step.
        step (int): Calls between two steps.
        init, target, optimizer: As in :class:`ExponentialShift`.
    """

    def __init__(self, attr, gamma, step, init=None, target=None,
                 optimizer=None):
        self._require(step > 0, 'step', step, 'positive')
        super().__init__(attr, init, target, optimizer)
        self._gamma = gamma
        self._step = step

    def _factor(self, t):
        return self._gamma ** (t // self._step)


class WarmupShift(_Shift):
    """Moves the attribute linearly from ``warmup_start`` to ``init`` over
    the first ``warmup_iter`` calls, then keeps it at ``init``.

    Args:
        attr (str): Name of the optimizer attribute.
        warmup_start (float): Value at the start.
        warmup_iter (int): Number of calls of the warm-up.
        init (float): Value after the warm-up.
        optimizer: Optimizer to change (default the ``'main'`` one).
    """

    def __init__(self, attr, warmup_start, warmup_iter, init,
                 optimizer=None):
        self._require(warmup_iter > 0, 'warmup_iter', warmup_iter,
                      'positive')
        super().__init__(attr, init, None, optimizer)
        self._warmup_start = warmup_start
        self._warmup_iter = warmup_iter

    def _value(self, t):
        if t >= self._warmup_iter:
            return self._init
        start = self._warmup_start
        return start + (self._init - start) * t / self._warmup_iter
