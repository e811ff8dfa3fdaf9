"""Gated recurrent unit layers: stateless and stateful."""
from kusari.autograd.functions.activation.sigmoid import sigmoid
from kusari.autograd.functions.activation.tanh import tanh
from kusari.autograd.functions.math.linear_interpolate import \
    linear_interpolate
from kusari.links import link
from kusari.links.layers.connection import linear
from kusari.links.layers.rnn import _stateful


class GRUBase(link.Chain):
    """The weights of a GRU: ``W_r``, ``W_z``, ``W`` on the input and
    ``U_r``, ``U_z``, ``U`` on the previous state (all Linear with bias).

    Args:
        in_size (int or None): Input size.
        out_size (int): State size N.
        init: Initializer of the ``W_*`` weights.
        inner_init: Initializer of the ``U_*`` weights.
        bias_init: Initializer of every bias.
    """

    def __init__(self, in_size, out_size, init=None, inner_init=None,
                 bias_init=None):
        super().__init__()
        with self.init_scope():
            for gate in ('_r', '_z', ''):
                setattr(self, 'W' + gate, linear.Linear(
                    in_size, out_size, initialW=init,
                    initial_bias=bias_init))
                setattr(self, 'U' + gate, linear.Linear(
                    out_size, out_size, initialW=inner_init,
                    initial_bias=bias_init))


class StatelessGRU(GRUBase):
    """Stateless gated recurrent unit (Cho et al., 2014)::

        r = sigmoid(W_r x + U_r h)
        z = sigmoid(W_z x + U_z h)
        h_bar = tanh(W x + U (r * h))
        h_new = z * h_bar + (1 - z) * h

    Arguments as in :class:`GRUBase`.
    """

    def forward(self, h, x):
        """The new state from the previous one ``h`` and the input."""
        r = sigmoid(self.W_r(x) + self.U_r(h))
        z = sigmoid(self.W_z(x) + self.U_z(h))
        h_bar = tanh(self.W(x) + self.U(r * h))
        return linear_interpolate(z, h_bar, h)


class StatefulGRU(_stateful.StatefulMixin, GRUBase):
    """Stateful gated recurrent unit: :class:`StatelessGRU` holding its
    state ``h`` between calls (zero before the first).

    Args:
        in_size (int or None), out_size (int), init, inner_init: As in
            :class:`GRUBase`.
        bias_init: Initializer of every bias (zero).

    Attributes:
        h (~kusari.autograd.Variable): The state, or None.
    """

    state_names = ('h',)

    def __init__(self, in_size, out_size, init=None, inner_init=None,
                 bias_init=0):
        super().__init__(in_size, out_size, init, inner_init, bias_init)
        self.state_size = out_size
        self.reset_state()

    def set_state(self, h):
        """Set the state ``h`` (a Variable)."""
        self._set_states(h=h)

    def forward(self, x):
        """One step from ``x``; returns the new state."""
        z = self.W_z(x)
        h_bar = self.W(x)
        if self.h is not None:
            r = sigmoid(self.W_r(x) + self.U_r(self.h))
            z += self.U_z(self.h)
            h_bar += self.U(r * self.h)
        z = sigmoid(z)
        h_bar = tanh(h_bar)
        if self.h is None:
            self.h = z * h_bar
        else:
            self.h = linear_interpolate(z, h_bar, self.h)
        return self.h


class GRU(StatefulGRU):
    """Stateful gated recurrent unit (:class:`StatefulGRU`), called with
    the input only; use :class:`StatelessGRU` to pass the state."""

    def __call__(self, *args):
        if len(args) != 1:
            hint = ('; GRU is stateful: call it with x only, or use '
                    'StatelessGRU to pass (h, x)') if len(args) == 2 else ''
            raise ValueError(f'{self._describe()}: expected one argument '
                             f'x, got {len(args)}{hint}')
        return super().__call__(args[0])
