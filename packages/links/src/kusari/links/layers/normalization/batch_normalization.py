"""Batch normalization layer, with running statistics for inference."""
import copy

import numpy

from kusari.array import configuration
from kusari.array import initializers
from kusari.autograd.functions.normalization import batch_normalization
from kusari.autograd.variable import Parameter
from kusari.links import link


def typed_initializer(value, default, dtype):
    """``value`` (``default`` if None) as an initializer of ``dtype`` (None
    leaves its dtype as it is); a given Initializer object is copied, not
    changed."""
    initializer = initializers.get_initializer(
        default if value is None else value)
    if dtype is not None and isinstance(initializer,
                                        initializers.Initializer):
        initializer = copy.copy(initializer)
        initializer.dtype = dtype
    return initializer


def running_decay(link, finetune):
    """The decay of the running statistics for one training call: the
    link's ``decay``, or with ``finetune`` ``1 - 1 / N`` after counting
    the call in ``link.N`` (so the statistics become the plain mean of
    the batches seen since :meth:`start_finetuning`)."""
    if not finetune:
        return link.decay
    link.N += 1
    return 1.0 - 1.0 / link.N


def parse_finetune(layer_name, kwargs):
    """The ``finetune`` keyword of a normalization call; the removed
    ``test`` keyword and unknown keywords are errors."""
    if 'test' in kwargs:
        raise ValueError(
            f"{layer_name}: the test argument is not supported anymore; "
            f"use chainer.using_config('train', False)")
    finetune = kwargs.pop('finetune', False)
    if kwargs:
        raise TypeError(f'{layer_name}: unexpected keyword arguments '
                        f'{", ".join(sorted(kwargs))}')
    return finetune


class BatchNormalization(link.Link):
    """Batch normalization layer on outputs of linear or convolution
    functions (see :func:`~kusari.autograd.functions.batch_normalization`).

    In training (``config.train``) it normalizes with the statistics of
    the batch and updates the running averages ``avg_mean`` and
    ``avg_var``; otherwise it normalizes with those averages.

    Args:
        size (int, tuple of ints or None): The shape of gamma, beta and
            the statistics; None infers it from the first input (``axis``
            is then required).
        decay (float): Decay of the running averages.
        eps (float): Added to the variance, for stability.
        dtype: dtype of the parameters and statistics (None: the
            configured dtype; ``mixed16`` keeps them in float32).
        use_gamma (bool): Learn a scale ``gamma`` (else scale by one).
        use_beta (bool): Learn a shift ``beta`` (else shift by zero).
        initial_gamma, initial_beta: Initializers of gamma (default one)
            and beta (default zero).
        axis (int or tuple of ints): The axes the statistics are taken
            over; by default the batch axis and those after ``size``.
        initial_avg_mean, initial_avg_var: Initializers of the running
            mean (default zero) and variance (default one).

    Attributes:
        gamma, beta (~kusari.autograd.Parameter): The scale and shift, or
            None.
        avg_mean, avg_var (array): The running mean and (unbiased)
            variance: persistent values.
        N (int): Calls counted for fine-tuning: persistent.
    """

    def __init__(self, size=None, decay=0.9, eps=2e-5, dtype=None,
                 use_gamma=True, use_beta=True, initial_gamma=None,
                 initial_beta=None, axis=None, initial_avg_mean=None,
                 initial_avg_var=None):
        if size is None and axis is None:
            raise RuntimeError(
                'BatchNormalization: size or axis is required')
        super().__init__()
        self.decay = decay
        self.eps = eps
        self.axis = (axis,) if isinstance(axis, int) else axis
        self._dtype = configuration.get_dtype(dtype,
                                              map_mixed16=numpy.float32)
        self._initial_avg_mean = initial_avg_mean
        self._initial_avg_var = initial_avg_var
        self.add_persistent('avg_mean', None)
        self.add_persistent('avg_var', None)
        self.add_persistent('N', 0)
        self.gamma = self.beta = None
        with self.init_scope():
            if use_gamma:
                self.gamma = Parameter(
                    typed_initializer(initial_gamma, 1, self._dtype))
            if use_beta:
                self.beta = Parameter(
                    typed_initializer(initial_beta, 0, self._dtype))
        if size is not None:
            self._initialize_params(size)

    @property
    def printable_specs(self):
        if self.avg_mean is not None:
            shape = self.avg_mean.shape
            yield 'size', shape[0] if len(shape) == 1 else shape
        yield 'decay', self.decay
        yield 'eps', self.eps
        yield 'dtype', numpy.dtype(self._dtype)
        yield 'use_gamma', self.gamma is not None
        yield 'use_beta', self.beta is not None

    def _initialize_params(self, shape):
        def statistic(initial, default):
            return initializers.generate_array(
                typed_initializer(initial, default, self._dtype), shape,
                self.xp, device=self.device)

        self.avg_mean = statistic(self._initial_avg_mean, 0)
        self.avg_var = statistic(self._initial_avg_var, 1)
        for param in (self.gamma, self.beta):
            if param is not None and param.array is None:
                param.initialize(self.avg_mean.shape)

    def _infer_shape(self, x):
        ndim = getattr(x, 'ndim', None)
        if ndim is None or any(not -ndim <= a < ndim for a in self.axis):
            raise ValueError(
                f'{self._describe()}: cannot infer size from x of shape '
                f'{getattr(x, "shape", None)} with axis={self.axis}')
        axes = {a % ndim for a in self.axis}
        return tuple(d for i, d in enumerate(x.shape) if i not in axes)

    def _scale_and_shift(self):
        """gamma and beta, ones and zeros standing for the unused ones."""
        xp, shape = self.xp, self.avg_mean.shape
        gamma = self.gamma if self.gamma is not None else \
            xp.ones(shape, self._dtype)
        beta = self.beta if self.beta is not None else \
            xp.zeros(shape, self._dtype)
        return gamma, beta

    def _running_statistics(self, finetune):
        """(decay, avg_mean, avg_var) for a training call: no statistic is
        updated while recomputing a forward pass."""
        if configuration.config.in_recomputing:
            return self.decay, None, None
        return running_decay(self, finetune), self.avg_mean, self.avg_var

    def forward(self, x, **kwargs):
        """Normalize ``x``.

        Args:
            x: Variable or array, float.
            finetune (bool): keyword only; in training, make the running
                statistics the plain average of the batches seen since
                :meth:`start_finetuning`.
        """
        finetune = parse_finetune(self._describe(), kwargs)
        if self.avg_mean is None:
            self._initialize_params(self._infer_shape(x))
        gamma, beta = self._scale_and_shift()
        if configuration.config.train:
            decay, avg_mean, avg_var = self._running_statistics(finetune)
            return batch_normalization.batch_normalization(
                x, gamma, beta, eps=self.eps, running_mean=avg_mean,
                running_var=avg_var, decay=decay, axis=self.axis)
        return batch_normalization.fixed_batch_normalization(
            x, gamma, beta, self.avg_mean, self.avg_var, self.eps,
            axis=self.axis)

    def start_finetuning(self):
        """Reset the count ``N`` of fine-tuning calls."""
        self.N = 0
