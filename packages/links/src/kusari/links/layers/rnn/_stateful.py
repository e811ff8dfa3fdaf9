"""What the stateful recurrent layers share: state Variables kept between
calls, reset, set from outside, and moved with the link; the gates of an
LSTM's pre-activations."""
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.array.split_axis import split_axis
from kusari.autograd.variable import Variable


class StatefulMixin:
    """A recurrent link holding the Variables named in ``state_names``
    (None until the first call or :meth:`reset_state`)."""

    state_names = ()

    def reset_state(self):
        """Forget the state: the next call starts from zeros."""
        for name in self.state_names:
            setattr(self, name, None)

    def _set_states(self, **states):
        """Set the named states to the given Variables, on this link's
        device."""
        for name, value in states.items():
            if not isinstance(value, Variable):
                raise TypeError(
                    f'{self._describe()}.set_state: {name} must be a '
                    f'Variable, got {type(value).__name__}')
        for name, value in states.items():
            value.to_device(self.device)
            setattr(self, name, value)

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        for name in self.state_names:
            state = getattr(self, name)
            if state is not None:
                visitor.visit_variable(state)

    def zero_state(self, batch, dtype):
        """A zero Variable ``(batch, state_size)`` on this link's device:
        a constant, that needs no gradient (a static_graph chain would
        refuse a Variable that needs one made in its code)."""
        with self.device:
            return Variable(self.xp.zeros((batch, self.state_size), dtype),
                            requires_grad=False)



def lstm_gates(lstm_in, state_size):
    """The gate pre-activations ``(a, i, f, o)``, each ``(B, state_size)``,
    interleaved in ``lstm_in`` ``(B, 4 state_size)`` as F.lstm reads
    them."""
    batch = lstm_in.shape[0]
    gates = reshape(lstm_in, (batch, state_size, 4))
    return tuple(reshape(g, (batch, state_size))
                 for g in split_axis(gates, 4, axis=2))
