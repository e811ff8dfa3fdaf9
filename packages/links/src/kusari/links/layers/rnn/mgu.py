"""Minimal gated units: stateless and stateful."""
from kusari.array import configuration
from kusari.autograd.functions.activation.sigmoid import sigmoid
from kusari.autograd.functions.activation.tanh import tanh
from kusari.autograd.functions.array.concat import concat
from kusari.autograd.functions.math.linear_interpolate import \
    linear_interpolate
from kusari.links import link
from kusari.links.layers.connection import linear
from kusari.links.layers.rnn import _stateful


class MGUBase(link.Chain):
    """Minimal gated unit (Zhou et al., 2016): one forget gate::

        f = sigmoid(W_f [h, x])
        h_bar = tanh(W_h [f * h, x])
        h_new = f * h_bar + (1 - f) * h

    Args:
        n_inputs (int): Input size.
        n_units (int): State size.
    """

    def __init__(self, n_inputs, n_units):
        super().__init__()
        with self.init_scope():
            self.W_f = linear.Linear(n_inputs + n_units, n_units)
            self.W_h = linear.Linear(n_inputs + n_units, n_units)

    def _step(self, h, x):
        f = sigmoid(self.W_f(concat([h, x], axis=1)))
        h_bar = tanh(self.W_h(concat([f * h, x], axis=1)))
        return linear_interpolate(f, h_bar, h)


class StatelessMGU(MGUBase):
    """Stateless minimal gated unit (arguments as in :class:`MGUBase`)."""

    def forward(self, h, x):
        """The new state from the previous one ``h`` and the input."""
        return self._step(h, x)


class StatefulMGU(_stateful.StatefulMixin, MGUBase):
    """Stateful minimal gated unit, holding its state ``h`` between calls
    (zero, of the configured dtype, before the first).

    Args:
        in_size (int): Input size.
        out_size (int): State size.
    """

    state_names = ('h',)

    def __init__(self, in_size, out_size):
        super().__init__(in_size, out_size)
        self.state_size = out_size
        self.reset_state()

    def set_state(self, h):
        """Set the state ``h`` (a Variable)."""
        self._set_states(h=h)

    def forward(self, x):
        """One step from ``x``; returns the new state."""
        h = self.h
        if h is None:
            h = self.zero_state(x.shape[0], configuration.get_dtype())
        self.h = self._step(h, x)
        return self.h
