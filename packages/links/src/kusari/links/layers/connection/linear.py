"""Linear (fully connected) layer."""
import math

from kusari.autograd import variable
from kusari.autograd.functions.connection import linear
from kusari.links import link
from kusari.links.layers.connection import _layer


class Linear(link.Link):
    """Linear layer: ``y = x W^T + b``.

    ``Linear(out_size)`` (or ``in_size=None``) leaves ``W`` uninitialized
    until the first call, which takes the input size from the input.

    Args:
        in_size (int or None): The input size (per example: the product of
            the non-batch axes of x).
        out_size (int): The output size.
        nobias (bool): Leave out the bias ``b``.
        initialW: Initializer of ``W`` ``(out_size, in_size)``; None is
            LeCun normal.
        initial_bias: Initializer of ``b`` ``(out_size,)``; None is zero.

    Attributes:
        W (~kusari.autograd.Parameter): The weight.
        b (~kusari.autograd.Parameter): The bias, or None.
    """

    def __init__(self, in_size, out_size=None, nobias=False, initialW=None,
                 initial_bias=None):
        if out_size is None:
            in_size, out_size = None, in_size
        self.in_size = _layer.positive_int('Linear', 'in_size', in_size,
                                           allow_none=True)
        self.out_size = _layer.positive_int('Linear', 'out_size', out_size)
        super().__init__()
        with self.init_scope():
            # W is drawn before b, so that a seed gives Chainer's values.
            self.W = _layer.parameter(initialW)
            if self.in_size is not None:
                self.W.initialize((self.out_size, self.in_size))
            self.b = _layer.bias(nobias, initial_bias, self.out_size)

    @classmethod
    def from_params(cls, W, b=None, nobias=False):
        """A Linear whose ``W`` (and ``b``, else zeros unless ``nobias``)
        start as copies of the given arrays."""
        W, b = variable.as_array(W), variable.as_array(b)
        out_size, in_size = W.shape
        if b is not None and b.shape != (out_size,):
            raise ValueError(
                f'Linear.from_params: b must have shape ({out_size},) for '
                f'W of shape {W.shape}; got {b.shape}')
        return cls(in_size, out_size, nobias, W, b)

    @property
    def printable_specs(self):
        yield 'in_size', self.in_size
        yield 'out_size', self.out_size
        yield 'nobias', self.b is None

    def forward(self, x, n_batch_axes=1):
        """Apply the layer to ``x`` (Variable or array); the first
        ``n_batch_axes`` axes are batch axes, the others are flattened."""
        if self.W.array is None:
            self._initialize_from_input(x, n_batch_axes)
        return linear.linear(x, self.W, self.b, n_batch_axes)

    def _initialize_params(self, in_size):
        """Shape ``W`` for inputs of ``in_size`` features (Chainer's
        signature)."""
        self.in_size = in_size
        self.W.initialize((self.out_size, in_size))

    def _initialize_from_input(self, x, n_batch_axes=1):
        """Shape ``W`` from the forward's arguments."""
        ndim = getattr(x, 'ndim', 0)
        if ndim <= n_batch_axes:
            raise ValueError(
                f'{self._describe()}: cannot infer in_size from x of shape '
                f'{getattr(x, "shape", None)}: expected more than '
                f'n_batch_axes={n_batch_axes} axes')
        self._initialize_params(math.prod(x.shape[n_batch_axes:]))
