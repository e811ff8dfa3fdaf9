"""Stacked (bi)directional RNN layers over lists of sequences, and what
the n-step layers share."""
import numpy

from kusari.array import initializers
from kusari.autograd.functions.array.permutate import permutate
from kusari.autograd.functions.array.transpose_sequence import \
    transpose_sequence
from kusari.autograd.functions.connection import n_step_rnn
from kusari.autograd.variable import Parameter
from kusari.autograd.variable import Variable
from kusari.links import link


def argsort_list_descent(lst):
    """Indices sorting the sequences ``lst`` by decreasing length (ties
    keep their order)."""
    return numpy.argsort([-len(x) for x in lst], kind='stable').astype(
        numpy.int32)


def permutate_list(lst, indices, inv):
    """``lst`` reordered: ``[lst[i] for i in indices]``, or the inverse
    reordering with ``inv``."""
    if not inv:
        return [lst[i] for i in indices]
    result = [None] * len(lst)
    for position, i in enumerate(indices):
        result[i] = lst[position]
    return result


class NStepRNNBase(link.ChainList):
    """A stacked RNN over a list of sequences: one child link per layer
    and direction (index ``2 l + d`` when bidirectional) holding the
    weights ``w0 .. w{n_weights - 1}`` and biases ``b0 ..`` that the
    n-step function takes.

    Subclasses set :attr:`n_weights`, :attr:`use_bi_direction`,
    :attr:`n_cells` and implement :meth:`rnn`.

    Args:
        n_layers (int): Number of layers.
        in_size (int): Input size.
        out_size (int): Hidden size N.
        dropout (float): Dropout ratio between layers.
        initialW: Initializer of the weights; None is a normal
            distribution of scale ``sqrt(1 / fan_in)``.
        initial_bias: Initializer of the biases; None is zero.
    """

    n_weights = 2
    use_bi_direction = False
    n_cells = 1

    def __init__(self, n_layers, in_size, out_size, dropout, *,
                 initialW=None, initial_bias=None, **kwargs):
        name = type(self).__name__
        for removed in ('use_cudnn', 'use_bi_direction'):
            if removed in kwargs:
                raise ValueError(
                    f'{name}: the {removed} argument is not supported '
                    f'anymore; choose the class (NStepX or NStepBiX) and '
                    f"use chainer.using_config('use_cudnn', ...)")
        if kwargs:
            raise TypeError(f'{name}: unexpected keyword arguments '
                            f'{", ".join(sorted(kwargs))}')
        directions = 2 if self.use_bi_direction else 1
        layers = []
        for layer in range(n_layers):
            for _ in range(directions):
                layers.append(self._layer_weights(
                    in_size if layer == 0 else out_size * directions,
                    out_size, initialW, initial_bias))
        super().__init__(*layers)
        self.n_layers = n_layers
        self.dropout = dropout
        self.out_size = out_size
        self.direction = directions

    def _layer_weights(self, in_size, out_size, initialW, initial_bias):
        """The link of one layer and direction: the first half of the
        weights act on the input, the second on the hidden state."""
        weights = link.Link()
        with weights.init_scope():
            for j in range(self.n_weights):
                fan_in = in_size if j < self.n_weights // 2 else out_size
                init = initializers.Normal(numpy.sqrt(1. / fan_in)) \
                    if initialW is None else initialW
                setattr(weights, f'w{j}', Parameter(
                    initializers.get_initializer(init), (out_size, fan_in)))
                setattr(weights, f'b{j}', Parameter(
                    initializers.get_initializer(
                        0 if initial_bias is None else initial_bias),
                    (out_size,)))
        return weights

    @property
    def ws(self):
        """The weights, one list per layer and direction."""
        return [[getattr(layer, f'w{j}') for j in range(self.n_weights)]
                for layer in self]

    @property
    def bs(self):
        """The biases, one list per layer and direction."""
        return [[getattr(layer, f'b{j}') for j in range(self.n_weights)]
                for layer in self]

    def init_hx(self, xs):
        """Zero initial states for the batch of sequences ``xs``."""
        shape = (self.n_layers * self.direction, len(xs), self.out_size)
        with self.device:
            return Variable(self.xp.zeros(shape, xs[0].dtype))

    def rnn(self, *args):
        """The n-step function: ``rnn(n_layers, dropout, *states, ws, bs,
        xs)`` returning ``(*states, ys)``."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement rnn()')

    def _call(self, states, xs, **kwargs):
        """Run over the sequences ``xs`` (any order of lengths) from the
        initial ``states`` (None: zeros); returns ``(*states, ys)`` with
        ``ys`` in the order of ``xs``."""
        if 'train' in kwargs:
            raise ValueError(
                f"{self._describe()}: the train argument is not supported "
                f"anymore; use chainer.using_config('train', ...)")
        if kwargs:
            raise TypeError(f'{self._describe()}: unexpected keyword '
                            f'arguments {", ".join(sorted(kwargs))}')
        if not isinstance(xs, (list, tuple)) or not xs:
            raise TypeError(
                f'{self._describe()}: xs must be a non-empty list of '
                f'sequences (L_i, in_size); got {type(xs).__name__}')
        indices = argsort_list_descent(xs)
        xs = permutate_list(xs, indices, inv=False)
        with self.device:
            order = self.xp.asarray(indices)
        states = [self.init_hx(xs) if s is None
                  else permutate(s, order, axis=1) for s in states]
        result = self.rnn(self.n_layers, self.dropout, *states, self.ws,
                          self.bs, transpose_sequence(xs))
        states = [permutate(s, order, axis=1, inv=True)
                  for s in result[:-1]]
        ys = permutate_list(list(transpose_sequence(result[-1])), indices,
                            inv=True)
        return (*states, ys)

    def forward(self, hx, xs, **kwargs):
        """Run over ``xs``, a list of Variables ``(L_i, in_size)``, from
        the hidden states ``hx`` ``(n_layers * directions, B, N)`` (None:
        zeros).

        Returns:
            tuple: ``(hy, ys)``: the last hidden states and the list of
            output sequences ``(L_i, N * directions)``.
        """
        return self._call([hx], xs, **kwargs)


class _NStepRNN(NStepRNNBase):
    """An Elman RNN: h = activation(W0 x + W1 h + b0 + b1)."""

    activation = 'tanh'

    def rnn(self, *args):
        fn = n_step_rnn.n_step_birnn if self.use_bi_direction \
            else n_step_rnn.n_step_rnn
        return fn(*args, activation=self.activation)


class NStepRNNTanh(_NStepRNN):
    """Stacked unidirectional RNN with tanh over sequences (see
    :func:`~kusari.autograd.functions.n_step_rnn`; arguments as in
    :class:`NStepRNNBase`)."""


class NStepRNNReLU(_NStepRNN):
    """Stacked unidirectional RNN with relu over sequences (see
    :func:`~kusari.autograd.functions.n_step_rnn`; arguments as in
    :class:`NStepRNNBase`)."""

    activation = 'relu'


class NStepBiRNNTanh(_NStepRNN):
    """Stacked bidirectional RNN with tanh over sequences (see
    :func:`~kusari.autograd.functions.n_step_birnn`; arguments as in
    :class:`NStepRNNBase`)."""

    use_bi_direction = True


class NStepBiRNNReLU(_NStepRNN):
    """Stacked bidirectional RNN with relu over sequences (see
    :func:`~kusari.autograd.functions.n_step_birnn`; arguments as in
    :class:`NStepRNNBase`)."""

    use_bi_direction = True
    activation = 'relu'
