"""Bilinear layer."""
from kusari.autograd.functions.connection import bilinear
from kusari.links import link
from kusari.links.layers.connection import _layer


class Bilinear(link.Link):
    """Bilinear layer: ``y = e1^T W e2 + V1^T e1 + V2^T e2 + b`` per
    example (see :func:`~kusari.autograd.functions.bilinear`).

    Args:
        left_size (int): Size of e1.
        right_size (int): Size of e2.
        out_size (int): Size of y.
        nobias (bool): Leave out the linear terms V1, V2 and b.
        initialW: Initializer of ``W`` ``(left_size, right_size,
            out_size)``; None is LeCun normal, as in Chainer (its fan-in
            is then ``right_size * out_size``).
        initial_bias (tuple): Initializers of ``(V1, V2, b)``, shaped
            ``(left_size, out_size)``, ``(right_size, out_size)`` and
            ``(out_size,)``; None is the default initializer for V1 and V2
            and zero for b. Ignored with ``nobias``.
    """

    def __init__(self, left_size, right_size, out_size, nobias=False,
                 initialW=None, initial_bias=None):
        sizes = tuple(_layer.positive_int('Bilinear', name, value)
                      for name, value in (('left_size', left_size),
                                          ('right_size', right_size),
                                          ('out_size', out_size)))
        if initial_bias is None:
            initial_bias = (None, None, 0)
        elif len(initial_bias) != 3:
            raise ValueError(
                f'Bilinear: initial_bias must be (V1, V2, b) initializers; '
                f'got {len(initial_bias)} items')
        super().__init__()
        self.nobias = nobias
        left, right, out = sizes
        with self.init_scope():
            self.W = _layer.parameter(initialW, sizes)
            if not nobias:
                V1, V2, b = initial_bias
                self.V1 = _layer.parameter(V1, (left, out))
                self.V2 = _layer.parameter(V2, (right, out))
                self.b = _layer.parameter(b, out)

    def forward(self, e1, e2):
        """Apply the layer to ``e1`` ``(n, left_size)`` and ``e2`` ``(n,
        right_size)``."""
        if self.nobias:
            return bilinear.bilinear(e1, e2, self.W)
        return bilinear.bilinear(e1, e2, self.W, self.V1, self.V2, self.b)
