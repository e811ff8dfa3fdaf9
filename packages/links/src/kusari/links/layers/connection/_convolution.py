"""The base of the convolution and deconvolution layers: their geometry
attributes, the filter ``W`` shaped (lazily, if need be) from the input
channels, and the bias."""
from kusari.autograd import variable
from kusari.links import link
from kusari.links.layers.connection import _layer


class ConvolutionBase(link.Link):
    """A (de)convolution layer over ``ndim`` spatial axes.

    A convolution's filter is ``(out, in / groups, *ksize)``; with
    ``transposed`` (a deconvolution) it is ``(in, out / groups, *ksize)``.
    Deconvolutions also have ``outsize``. Subclasses define
    :meth:`_apply` with their function.
    """

    transposed = False
    # Whether the constructor takes ndim first (ConvolutionND and
    # DeconvolutionND), for from_params.
    _takes_ndim = False

    def __init__(self, ndim, in_channels, out_channels, ksize, stride, pad,
                 nobias, initialW, initial_bias, dilate, groups,
                 outsize=None):
        name = type(self).__name__
        in_channels, out_channels, ksize = _layer.shift_short_form(
            in_channels, out_channels, ksize)
        if ksize is None or out_channels is None:
            raise TypeError(
                f'{name}: ksize must be given: (in_channels, out_channels, '
                f'ksize) or the short form (out_channels, ksize)')
        ndim = _layer.positive_int(name, 'ndim', ndim)
        self.in_channels = _layer.positive_int(
            name, 'in_channels', in_channels, allow_none=True)
        self.out_channels = _layer.positive_int(
            name, 'out_channels', out_channels)
        self.ksize = _layer.ntuple(name, 'ksize', ksize, ndim, 1)
        self.stride = _layer.ntuple(name, 'stride', stride, ndim, 1)
        self.pad = _layer.ntuple(name, 'pad', pad, ndim, 0)
        self.dilate = _layer.ntuple(name, 'dilate', dilate, ndim, 1)
        self.groups = _layer.positive_int(name, 'groups', groups)
        self._ndim = ndim
        if self.transposed:
            self.outsize = outsize if outsize is None else _layer.ntuple(
                name, 'outsize', outsize, ndim, 1)
            _layer.expect_channels(self, self.out_channels, self.groups)
        if self.in_channels is not None:
            _layer.expect_channels(self, self.in_channels, self.groups)
        super().__init__()
        with self.init_scope():
            # W is drawn before b, so that a seed gives Chainer's values.
            self.W = _layer.parameter(initialW)
            if self.in_channels is not None:
                self.W.initialize(self._filter_shape(self.in_channels))
            self.b = _layer.bias(nobias, initial_bias, self.out_channels)

    def _filter_shape(self, in_channels):
        if self.transposed:
            return (in_channels, self.out_channels // self.groups) + \
                self.ksize
        return (self.out_channels, in_channels // self.groups) + self.ksize

    def _initialize_params(self, in_channels):
        """Shape ``W`` for ``in_channels`` input channels (Chainer's
        signature: the first input's ``x.shape[1]``)."""
        _layer.expect_channels(self, in_channels, self.groups)
        self.in_channels = in_channels
        self.W.initialize(self._filter_shape(in_channels))

    def _initialize_from_input(self, x, *args, **kwargs):
        """Shape the lazy parameters from the forward's arguments (``x``
        first; the others do not matter to the shapes)."""
        _layer.expect_ndim(self, x, self._ndim + 2,
                           f'(batch, channels and {self._ndim} spatial)')
        self._initialize_params(x.shape[1])

    def forward(self, x):
        """Apply the layer to ``x`` ``(n, c, *spatial)``, shaping ``W``
        from its channels first if they were not given."""
        if self.W.array is None:
            self._initialize_from_input(x)
        return self._apply(x)

    def _apply(self, x):
        """The layer's function of ``x`` with ``W`` shaped."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement _apply')

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False,
                    **kwargs):
        """A layer whose ``W`` (and ``b``, else zeros unless ``nobias``)
        start as copies of the given arrays (or Variables); the channels
        and ksize are read from ``W``'s shape. ``kwargs`` are the layer's
        other options (``dilate``, ``groups``, ...)."""
        W, b = variable.as_array(W), variable.as_array(b)
        groups = kwargs.get('groups', 1)
        first, second = W.shape[:2]
        if cls.transposed:
            channels = {'in_channels': first, 'out_channels': second * groups}
        else:
            channels = {'in_channels': second * groups, 'out_channels': first}
        if cls._takes_ndim:
            kwargs['ndim'] = W.ndim - 2
        return cls(ksize=W.shape[2:], stride=stride, pad=pad, nobias=nobias,
                   initialW=W, initial_bias=b, **channels, **kwargs)

    @property
    def printable_specs(self):
        yield 'in_channels', self.in_channels
        yield 'out_channels', self.out_channels
        yield 'ksize', self.ksize
        yield 'stride', self.stride
        yield 'pad', self.pad
        yield 'nobias', self.b is None
        yield 'dilate', self.dilate
        yield 'groups', self.groups
        if self.transposed:
            yield 'outsize', self.outsize
