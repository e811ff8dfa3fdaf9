"""Order samplers: the index order an iterator follows in each epoch."""
import json

import numpy


class OrderSampler:
    """Base class of all order samplers.

    An order sampler is called by an iterator at the start and at the end
    of every epoch as ``sampler(current_order, current_position)`` and
    returns the order of the next epoch: a 1-D integer array of indices
    into the dataset, as long as ``current_order``.
    """

    def __call__(self, current_order, current_position):
        raise NotImplementedError(
            f'{type(self).__name__} must implement __call__')


class ShuffleOrderSampler(OrderSampler):
    """Sampler that returns a new random permutation at every call.

    Args:
        random_state (numpy.random.RandomState or numpy.random.Generator):
            Source of the permutations. None uses NumPy's global random
            state, so ``numpy.random.seed`` makes the orders reproducible.
    """

    def __init__(self, random_state=None):
        if random_state is not None and not hasattr(
                random_state, 'permutation'):
            raise TypeError(
                f'ShuffleOrderSampler: random_state must be a '
                f'numpy.random.RandomState or Generator (or None), got '
                f'{type(random_state).__name__}')
        self._random = random_state

    def __call__(self, current_order, current_position):
        random = numpy.random if self._random is None else self._random
        return random.permutation(len(current_order))

    @property
    def has_state(self):
        """Whether :meth:`serialize` saves anything: the state of a NumPy
        ``random_state``. With None there is nothing to save here (a
        Trainer's snapshot holds the state of ``numpy.random``); a
        generator of another kind is not saved."""
        return isinstance(self._random, (numpy.random.RandomState,
                                         numpy.random.Generator))

    def serialize(self, serializer):
        """Save or load the state of ``random_state`` (as JSON), if
        :attr:`has_state`, so that a resumed iterator draws the orders an
        uninterrupted one draws."""
        random = self._random
        if isinstance(random, numpy.random.RandomState):
            state = random.get_state(legacy=False)
        elif isinstance(random, numpy.random.Generator):
            state = random.bit_generator.state
        else:
            return
        # A serializer returns the value it saves, a deserializer the one
        # it loads; setting the state saved changes nothing.
        stored = serializer('random_state', json.dumps(state, default=_plain))
        state = json.loads(str(stored))
        if isinstance(random, numpy.random.RandomState):
            random.set_state(state)
        else:
            random.bit_generator.state = state


def _plain(value):
    """JSON's form of the arrays and NumPy integers in a generator's
    state."""
    return value.tolist() if isinstance(value, numpy.ndarray) else int(value)
