"""Fully-connected layer with simplified dropconnect."""
import math

from kusari.autograd.functions.noise import simplified_dropconnect
from kusari.links import link
from kusari.links.layers.connection import _layer


class SimplifiedDropconnect(link.Link):
    """Fully-connected layer whose weights are dropped at random while
    training (see
    :func:`~kusari.autograd.functions.simplified_dropconnect`).

    Args:
        in_size (int or None): Input size (per example); None infers it.
        out_size (int): Output size.
        ratio (float): Probability of dropping each weight.
        nobias (bool): Leave out the bias.
        initialW: Initializer of ``W`` ``(out_size, in_size)``; None is
            LeCun normal.
        initial_bias: Initializer of ``b``; None is zero.
    """

    def __init__(self, in_size, out_size, ratio=.5, nobias=False,
                 initialW=None, initial_bias=None):
        name = 'SimplifiedDropconnect'
        self.in_size = _layer.positive_int(name, 'in_size', in_size,
                                           allow_none=True)
        self.out_size = _layer.positive_int(name, 'out_size', out_size)
        super().__init__()
        self.ratio = ratio
        with self.init_scope():
            # W is drawn before b, so that a seed gives Chainer's values.
            self.W = _layer.parameter(initialW)
            if self.in_size is not None:
                self.W.initialize((self.out_size, self.in_size))
            self.b = _layer.bias(nobias, initial_bias, self.out_size)

    def forward(self, x, train=True, mask=None, use_batchwise_mask=True):
        """Apply the layer to ``x`` ``(B, ...)``.

        Args:
            x: Variable or array; its axes after the first are flattened.
            train (bool): Drop weights (True) or use them all.
            mask: A given 0/1 mask instead of a random one. Unlike
                Chainer 7.8.1, the link does not keep the first one as a
                persistent ``mask``: what it saves does not depend on its
                calls, so a save/load round trip keeps the same keys
                (files with a ``mask`` entry still load).
            use_batchwise_mask (bool): One mask per example, or one for
                the batch.
        """
        if self.W.array is None:
            if getattr(x, 'ndim', 0) < 2:
                raise ValueError(
                    f'{self._describe()}: cannot infer in_size from x of '
                    f'shape {getattr(x, "shape", None)}: expected a batch '
                    f'axis and at least one more')
            self.in_size = math.prod(x.shape[1:])
            self.W.initialize((self.out_size, self.in_size))
        return simplified_dropconnect.simplified_dropconnect(
            x, self.W, self.b, self.ratio, train, mask, use_batchwise_mask)
